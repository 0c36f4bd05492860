/**
 * A client-rendered shop in history mode (React and wouter's pushState links), built by js-sites.ts at test time.
 * The server answers every path with the same empty shell: only a rendered crawl sees its pages, and what the
 * script changes in the head (title, description, canonical, robots) is what the render-diff reports compare.
 */
import { useEffect, useState } from 'react';
import { createRoot } from 'react-dom/client';
import { Link, Route, Switch, useParams } from 'wouter';

const PRODUCTS = ['1', '2', '3'];
const PROSE = 'This product is described at length so that its rendered page holds real content. '.repeat(12);

function setHead(title: string, description: string, canonicalPath: string, robots?: string): void {
  document.title = title;
  document.querySelector('meta[name=description]')?.setAttribute('content', description);
  const canonical =
    document.querySelector('link[rel=canonical]') ??
    document.head.appendChild(Object.assign(document.createElement('link'), { rel: 'canonical' }));
  canonical.setAttribute('href', new URL(canonicalPath, location.origin).href);
  if (robots)
    document.head.appendChild(Object.assign(document.createElement('meta'), { name: 'robots', content: robots }));
}

function Nav() {
  return (
    <nav>
      <Link href="/">Home</Link> <Link href="/products">Products</Link> <Link href="/about">About</Link>
    </nav>
  );
}

function Home() {
  useEffect(() => setHead('Home | JS Shop', 'The shop home page', '/'), []);
  return <h1>Welcome to the shop</h1>;
}

function Products() {
  const [note, setNote] = useState('');
  useEffect(() => {
    setHead('Products | JS Shop', 'Every product we sell', '/products');
    // robots.txt disallows /private/: a crawler obeying it renders this page without its data.
    void fetch('/private/stock.json')
      .then((response) => response.json() as Promise<{ note: string }>)
      .then((stock) => setNote(stock.note))
      .catch(() => setNote('stock unknown'));
  }, []);
  return (
    <>
      <h1>Products</h1>
      <p>{note}</p>
      <ul>
        {PRODUCTS.map((id) => (
          <li key={id}>
            <Link href={`/products/${id}`}>Product {id}</Link>
          </li>
        ))}
      </ul>
    </>
  );
}

/**
 * What only the script adds to a product's head: language alternates, on the other products so that no link of the
 * page already names them (a page's links keep one row per target).
 */
function addAlternates(id: string): void {
  const others = PRODUCTS.filter((other) => other !== id);
  for (const [i, hreflang] of ['de', 'fr'].entries())
    document.head.appendChild(
      Object.assign(document.createElement('link'), { rel: 'alternate', hreflang, href: `/products/${others[i]}` }),
    );
}

/**
 * A product: its head, alternates, schema.org data, image and reviews all come from the script. The reviews' request
 * answers 404 (a failed subrequest); the image is not downloaded unless the crawl asks for assets.
 */
function Product() {
  const { id } = useParams<{ id: string }>();
  const [reviews, setReviews] = useState('');
  useEffect(() => {
    setHead(`Product ${id} | JS Shop`, `All about product ${id}`, `/products/${id}`);
    addAlternates(id);
    void fetch(`/reviews/${id}.json`).then((response) => setReviews(response.ok ? 'reviews' : 'no reviews yet'));
  }, [id]);
  const data = { '@context': 'https://schema.org', '@type': 'Product', name: `Product ${id}` };
  return (
    <>
      <h1>Product {id}</h1>
      <img src={`/img/product-${id}.png`} alt={`Product ${id}`} />
      <p>{PROSE}</p>
      <p>{reviews}</p>
      <script type="application/ld+json">{JSON.stringify(data)}</script>
    </>
  );
}

function About() {
  useEffect(() => {
    setHead('About | JS Shop', 'Who we are', '/about', 'noindex');
    console.error('about: the team widget could not load');
    setTimeout(() => {
      throw new Error('about: team widget crashed');
    });
  }, []);
  return (
    <>
      <h1>About us</h1>
      <Link href="/live">Live stock</Link>
    </>
  );
}

/** Long-polls for ever: a request is always in flight, so its render ends at the cap. */
function Live() {
  useEffect(() => {
    setHead('Live | JS Shop', 'Live stock levels', '/live');
    let isLive = true;
    const poll = (): void => {
      if (isLive) void fetch('/api/stock').finally(poll);
    };
    poll();
    return () => {
      isLive = false;
    };
  }, []);
  return <h1>Live stock</h1>;
}

function App() {
  return (
    <>
      <Nav />
      <Switch>
        <Route path="/" component={Home} />
        <Route path="/products" component={Products} />
        <Route path="/products/:id" component={Product} />
        <Route path="/about" component={About} />
        <Route path="/live" component={Live} />
        <Route>Not found</Route>
      </Switch>
    </>
  );
}

createRoot(document.getElementById('root') as HTMLElement).render(<App />);
