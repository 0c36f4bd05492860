/** The app database on a PostgreSQL server (DATABASE_URL): a small pool, and a listener for other replicas' writes. */
import pg from 'pg';
import type { Connection, Query, Rows } from './connection.ts';
import { AppDbUnreachableError, isConnectionError } from './errors.ts';

export const WRITES_CHANNEL = 'thc_app_state';
/** The payload a load's notice carries on the writes channel (a write's payload is its process's instance id). */
export const STORE_CHANGED = 'store';
const LISTEN_RETRY_MS = 1000;
/** A server that does not take a connection in this time counts as unreachable (pg waits for ever by default). */
const CONNECT_TIMEOUT_MS = 5000;

/** Tells every process listening on the server (AppDb.onStoreChange) that a crawl was published in the store. */
export async function announceStoreChange(client: pg.Client): Promise<void> {
  await client.query('SELECT pg_notify($1, $2)', [WRITES_CHANNEL, STORE_CHANGED]);
}

/** TIMESTAMP columns hold UTC; BIGINT counts are small enough for a number. */
const TIMESTAMP_OID: number = pg.types.builtins.TIMESTAMP;
const INT8_OID: number = pg.types.builtins.INT8;
const parseUtcTimestamp = (text: string): Date => new Date(`${text.replace(' ', 'T')}Z`);
const serverTypes = {
  getTypeParser: ((oid: number, format?: 'text' | 'binary'): unknown => {
    if (oid === TIMESTAMP_OID) return parseUtcTimestamp;
    if (oid === INT8_OID) return Number;
    return pg.types.getTypeParser(oid, format) as unknown;
  }) as typeof pg.types.getTypeParser,
};

/** A simple-protocol query with several statements answers with one result each. */
const rowsOf = (result: pg.QueryResult | pg.QueryResult[]): Rows =>
  (Array.isArray(result) ? (result.at(-1)?.rows ?? []) : result.rows) as Rows;

export async function connectServer(url: string): Promise<Connection> {
  const pool = new pg.Pool({
    connectionString: url,
    max: 2,
    types: serverTypes,
    application_name: 'thc',
    connectionTimeoutMillis: CONNECT_TIMEOUT_MS,
  });
  // An idle client that loses its server is replaced by the pool; without a handler the error would end the process.
  pool.on('error', () => undefined);
  // A lost server is told apart from a failed statement, so calls can answer 503 instead of 500.
  const reached = <T>(work: Promise<T>): Promise<T> =>
    work.catch((error: unknown) => {
      throw isConnectionError(error) ? new AppDbUnreachableError(error) : error;
    });
  const query: Query = async (sql, params) => rowsOf(await reached(pool.query(sql, params as unknown[])));
  await query('SELECT 1', []);
  let listener: pg.Client | undefined;
  let retry: NodeJS.Timeout | undefined;
  let isClosing = false;
  return {
    isShared: true,
    query,
    async ping(timeoutMs) {
      let timer: NodeJS.Timeout | undefined;
      const timeout = new Promise<never>((_, reject) => {
        timer = setTimeout(() => reject(new Error(`no answer within ${timeoutMs} ms`)), timeoutMs);
      });
      try {
        await Promise.race([pool.query('SELECT 1'), timeout]);
      } finally {
        clearTimeout(timer);
      }
    },
    async transaction(work) {
      const client = await reached(pool.connect());
      try {
        await reached(client.query('BEGIN'));
        const result = await work(async (sql, params) => rowsOf(await reached(client.query(sql, params as unknown[]))));
        await reached(client.query('COMMIT'));
        client.release();
        return result;
      } catch (error) {
        await client.query('ROLLBACK').then(
          () => client.release(),
          (rollbackError: unknown) => client.release(rollbackError as Error),
        );
        throw error;
      }
    },
    async listen(channel, events) {
      const connect = async (): Promise<void> => {
        const client = new pg.Client({ connectionString: url, application_name: 'thc-listen' });
        let isListening = false;
        const lost = (): void => {
          if (!isListening || isClosing) return;
          isListening = false;
          events.onLost();
          reconnectSoon();
        };
        client.on('notification', (n) => {
          if (n.channel === channel) events.onNotify(n.payload ?? '');
        });
        client.on('error', lost);
        client.on('end', lost);
        try {
          await client.connect();
          await client.query(`LISTEN ${channel}`);
        } catch (error) {
          await client.end().catch(() => undefined);
          throw error;
        }
        listener = client;
        isListening = true;
        events.onListening();
      };
      const reconnectSoon = (): void => {
        retry = setTimeout(() => void connect().catch(reconnectSoon), LISTEN_RETRY_MS);
        retry.unref();
      };
      await connect();
    },
    async close() {
      isClosing = true;
      clearTimeout(retry);
      await listener?.end().catch(() => undefined);
      await pool.end();
    },
  };
}
