/** The status-reason vocabulary lives with the stored order's shape (src/ports); order code may import it from here. */
export * from '../ports/status-reasons';
