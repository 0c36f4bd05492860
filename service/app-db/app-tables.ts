/** Every table of the app database, parents before children. */
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
  'notifications',
  'notification_settings',
] as const;
