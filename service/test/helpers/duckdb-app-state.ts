/**
 * An app database as builds before PostgreSQL left it: DATA_DIR/app.duckdb at schema version 4, its DDL as those
 * builds shipped it, with one row or more in every table.
 */
import path from 'node:path';
import { openDatabase } from '../../db/duckdb.ts';

const DUCKDB_SCHEMA = `
      CREATE SEQUENCE users_id_seq START 1;
      CREATE TABLE users (
        id INTEGER PRIMARY KEY DEFAULT nextval('users_id_seq'),
        email VARCHAR NOT NULL UNIQUE CHECK (email = lower(email)),
        password_hash VARCHAR NOT NULL,
        role VARCHAR NOT NULL CHECK (role IN ('CLIENT', 'STAFF', 'ADMIN')),
        created_at TIMESTAMP NOT NULL
      );
      CREATE TABLE websites (
        id VARCHAR PRIMARY KEY,
        name VARCHAR NOT NULL,
        domain VARCHAR NOT NULL,
        created_at TIMESTAMP NOT NULL
      );
      CREATE TABLE user_websites (
        user_id INTEGER NOT NULL,
        website_id VARCHAR NOT NULL,
        PRIMARY KEY (user_id, website_id)
      );
      CREATE TABLE website_segments (
        website_id VARCHAR NOT NULL,
        id VARCHAR NOT NULL,
        name VARCHAR NOT NULL,
        url_scope VARCHAR,
        is_hreflang BOOLEAN NOT NULL DEFAULT false,
        is_ai BOOLEAN NOT NULL DEFAULT false,
        goal_type VARCHAR CHECK (goal_type IN ('conversion', 'ecommerce')),
        is_default BOOLEAN NOT NULL DEFAULT false,
        PRIMARY KEY (website_id, id)
      );
      CREATE TABLE module_managers (
        website_id VARCHAR NOT NULL,
        module VARCHAR NOT NULL,
        setup_id VARCHAR,
        flag BOOLEAN NOT NULL DEFAULT false,
        PRIMARY KEY (website_id, module)
      );
      CREATE TABLE sessions (
        token_hash VARCHAR PRIMARY KEY,
        user_id INTEGER NOT NULL,
        csrf_token VARCHAR NOT NULL,
        created_at TIMESTAMP NOT NULL,
        expires_at TIMESTAMP NOT NULL,
        revoked_at TIMESTAMP
      );
    
      CREATE TABLE crawl_registry (
        website_id VARCHAR NOT NULL,
        crawl_id INTEGER NOT NULL,
        module_state VARCHAR NOT NULL CHECK (module_state IN ('PENDING', 'APPROVED')),
        crawled_at TIMESTAMP NOT NULL,
        crawled_friendly VARCHAR NOT NULL,
        loaded_at TIMESTAMP NOT NULL,
        registered_at TIMESTAMP NOT NULL,
        approved_at TIMESTAMP,
        approved_by VARCHAR,
        PRIMARY KEY (website_id, crawl_id)
      );
      CREATE SEQUENCE approval_log_id_seq START 1;
      CREATE TABLE approval_log (
        id INTEGER PRIMARY KEY DEFAULT nextval('approval_log_id_seq'),
        website_id VARCHAR NOT NULL,
        crawl_id INTEGER NOT NULL,
        kind VARCHAR NOT NULL CHECK (kind IN ('manual', 'automatic')),
        approved_by VARCHAR NOT NULL,
        approved_at TIMESTAMP NOT NULL
      );
      CREATE TABLE mail_log (
        website_id VARCHAR NOT NULL,
        crawl_id INTEGER NOT NULL,
        user_id INTEGER NOT NULL,
        email VARCHAR NOT NULL,
        queued_at TIMESTAMP NOT NULL,
        sent_at TIMESTAMP,
        attempts INTEGER NOT NULL DEFAULT 0,
        last_error VARCHAR,
        PRIMARY KEY (website_id, crawl_id, user_id)
      );
      CREATE TABLE job_runs (
        job VARCHAR NOT NULL,
        scheduled_for TIMESTAMP NOT NULL,
        ran_at TIMESTAMP NOT NULL,
        approved_count INTEGER NOT NULL,
        PRIMARY KEY (job, scheduled_for)
      );
    
      CREATE SEQUENCE checklist_items_id_seq START 1;
      CREATE TABLE checklist_items (
        id INTEGER PRIMARY KEY DEFAULT nextval('checklist_items_id_seq'),
        website_id VARCHAR NOT NULL,
        report_id VARCHAR NOT NULL,
        url VARCHAR NOT NULL,
        sub_keys VARCHAR[] NOT NULL,
        start_crawl_id INTEGER NOT NULL,
        end_crawl_id INTEGER,
        checked_by VARCHAR NOT NULL,
        checked_at TIMESTAMP NOT NULL,
        unchecked_by VARCHAR,
        unchecked_at TIMESTAMP
      );
    
      CREATE TABLE login_failures (
        key VARCHAR PRIMARY KEY,
        failures INTEGER NOT NULL,
        last_failed_at TIMESTAMP NOT NULL
      );
    
`;

const MIGRATION_NAMES = ['accounts-and-websites', 'crawl-approval', 'checklist', 'login-failures'];

/** Writes it; resolves with its tables besides schema_migrations, by name. */
export async function writeDuckDbAppState(dataDir: string): Promise<string[]> {
  const db = await openDatabase(path.join(dataDir, 'app.duckdb'));
  const conn = await db.connect();
  try {
    await conn.run(DUCKDB_SCHEMA);
    await conn.run(`CREATE TABLE schema_migrations (
      version INTEGER PRIMARY KEY, name VARCHAR NOT NULL, checksum VARCHAR NOT NULL, applied_at TIMESTAMP NOT NULL)`);
    for (const [i, name] of MIGRATION_NAMES.entries())
      await conn.run(
        `INSERT INTO schema_migrations VALUES (${i + 1}, '${name}', 'duckdb', TIMESTAMP '2025-01-06 10:00:00')`,
      );
    await conn.run(`
      INSERT INTO users (email, password_hash, role, created_at) VALUES
        ('admin@shop.example', 'hash-a', 'ADMIN', TIMESTAMP '2025-01-06 10:00:00'),
        ('client@shop.example', 'hash-c', 'CLIENT', TIMESTAMP '2025-01-06 10:01:00');
      INSERT INTO websites VALUES ('shop', 'Shop', 'shop.example', TIMESTAMP '2025-01-06 10:00:00');
      INSERT INTO user_websites VALUES (2, 'shop');
      INSERT INTO website_segments VALUES
        ('shop', 'all', 'All pages', NULL, false, false, NULL, true),
        ('shop', 'blog', 'Blog', 'https://shop.example/blog/', true, false, 'conversion', false);
      INSERT INTO module_managers VALUES ('shop', 'technical-health-check', NULL, false), ('shop', 'uptime-report', 'up-1', false);
      INSERT INTO sessions VALUES ('token-hash', 2, 'csrf', TIMESTAMP '2025-01-07 09:00:00', TIMESTAMP '2025-01-07 21:00:00', NULL);
      INSERT INTO crawl_registry VALUES
        ('shop', 1, 'APPROVED', TIMESTAMP '2025-01-01 09:00:00', '1 Jan 2025', TIMESTAMP '2025-01-01 10:00:00',
         TIMESTAMP '2025-01-06 10:00:00', TIMESTAMP '2025-01-07 11:00:00', 'auto-approval');
      INSERT INTO approval_log (website_id, crawl_id, kind, approved_by, approved_at) VALUES
        ('shop', 1, 'automatic', 'auto-approval', TIMESTAMP '2025-01-07 11:00:00');
      INSERT INTO mail_log VALUES ('shop', 1, 2, 'client@shop.example', TIMESTAMP '2025-01-07 11:00:00',
        TIMESTAMP '2025-01-07 11:00:05', 1, NULL);
      INSERT INTO job_runs VALUES ('auto-approval', TIMESTAMP '2025-01-07 11:00:00', TIMESTAMP '2025-01-07 11:00:00', 1);
      INSERT INTO checklist_items (website_id, report_id, url, sub_keys, start_crawl_id, checked_by, checked_at) VALUES
        ('shop', 'links/internal-broken', 'https://shop.example/a', ['https://shop.example/b'], 1, 'admin@shop.example',
         TIMESTAMP '2025-01-08 09:00:00');
      INSERT INTO login_failures VALUES ('pair 127.0.0.1 client@shop.example', 2, TIMESTAMP '2025-01-08 09:30:00');
    `);
    const tables = await conn.runAndReadAll(
      `SELECT table_name FROM information_schema.tables WHERE table_name <> 'schema_migrations' ORDER BY table_name`,
    );
    return tables.getRowObjectsJS().map((row) => row.table_name as string);
  } finally {
    conn.closeSync();
    db.closeSync();
  }
}
