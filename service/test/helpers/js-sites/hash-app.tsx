/**
 * A client-rendered documentation site with hash routes (React and wouter's hash location): one HTML page whose
 * navigation is `#/…` links, the kind search engines do not index. `#/guide/install` is linked only from the guide's
 * own view, so only a renderer that visits the routes finds it. Its logo is the image a crawl that asks for assets
 * downloads.
 */
import { createRoot } from 'react-dom/client';
import { Link, Route, Router, Switch } from 'wouter';
import { useHashLocation } from 'wouter/use-hash-location';

function App() {
  return (
    <Router hook={useHashLocation}>
      <nav>
        <img src="/img/logo.png" alt="Docs" /> <Link href="/">Start</Link> <Link href="/guide">Guide</Link>{' '}
        <Link href="/api">API</Link>
      </nav>
      <Switch>
        <Route path="/">
          <h1>Documentation</h1>
        </Route>
        <Route path="/guide">
          <h1>Guide</h1>
          <Link href="/guide/install">Installing</Link>
        </Route>
        <Route path="/guide/install">
          <h1>Installing</h1>
        </Route>
        <Route path="/api">
          <h1>API</h1>
        </Route>
      </Switch>
    </Router>
  );
}

createRoot(document.getElementById('root') as HTMLElement).render(<App />);
