/**
 * One step of the team store's schema history, like storage's SQLite migrations: numbered from 1 without gaps,
 * each applied once. They all run in one transaction under an advisory lock (see team-schema.ts), so two
 * workers starting at once against a new store never race, and a failure leaves the previous version whole.
 */
export interface TeamMigration {
  version: number;
  name: string;
  /** Plain SQL, no parameters: sent as one simple query. */
  sql: string;
}
