/** Wording of the crawl-approval notices (spec §4, §8). */
export const APPROVING_TOAST = 'Approving crawl...';
export const APPROVED_TOAST = 'Crawl approved';
export const APPROVE_ERROR_TOAST = 'An error occurred when approving the crawl, please try again later.';

export const AUTO_APPROVAL_COPY =
  'Crawls are approved automatically on Tuesday at around 11am/12pm, and only then is the client emailed that new results are available.';

export const CLIENT_PENDING_TITLE = 'Your latest crawl is being reviewed';
export const CLIENT_PENDING_COPY =
  'Our team checks every crawl before its results are published. Crawls are approved automatically on Tuesday at around 11am/12pm, and we will email you as soon as the results are ready to view.';
