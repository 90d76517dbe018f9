/**
 * SQLite's `synchronous` setting for the embedded servers' WAL files (`EMBEDDED_SQLITE_SYNC`):
 * `normal` fsyncs the WAL at checkpoints, `full` at every commit as well.
 */
export type SqliteSync = 'normal' | 'full';
