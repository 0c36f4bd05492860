/**
 * The app database's schema history, oldest first. A shipped migration is never edited (its checksum is kept in
 * schema_migrations and checked at open): change the schema by appending a migration.
 *
 * Enumerations that may grow (module names) are checked in code, not with CHECK constraints, because DuckDB
 * cannot alter a constraint without rebuilding the table. "Who" columns hold the user's email at the time.
 */
import type { Migration } from './migrate.ts';

export const migrations: readonly Migration[] = [
  {
    version: 1,
    name: 'accounts-and-websites',
    sql: `
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
    `,
  },
  {
    version: 2,
    name: 'crawl-approval',
    sql: `
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
    `,
  },
  {
    version: 3,
    name: 'checklist',
    sql: `
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
    `,
  },
  {
    version: 4,
    name: 'login-failures',
    sql: `
      CREATE TABLE login_failures (
        key VARCHAR PRIMARY KEY,
        failures INTEGER NOT NULL,
        last_failed_at TIMESTAMP NOT NULL
      );
    `,
  },
];
