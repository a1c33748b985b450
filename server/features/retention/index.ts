/** Deleting what is past its retention term (docs/retention.md): a nightly job. */
export { RETENTION_JOB, retentionJobs } from './jobs';
export { applyRetention, RETENTION } from './rules';
