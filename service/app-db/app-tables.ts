/**
 * Every table of the app database that `app-db migrate-to` copies, parents before children. Not import_jobs: the Data
 * sources page's latest jobs, each run by the service that started it, which a move to another server ends.
 */
export const APP_TABLES = [
  'users',
  'websites',
  'user_websites',
  'website_segments',
  'module_managers',
  'sessions',
  'crawl_registry',
  'approval_log',
  'mail_log',
  'job_runs',
  'checklist_items',
  'login_failures',
  'crawl_settings',
  'crawl_runs',
  'password_tokens',
  'admin_log',
  'notifications',
  'notification_settings',
] as const;
