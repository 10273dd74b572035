/** What a `postgres://` URL points at, without its password: safe to log and to put in an error. */
export interface PostgresTarget {
  host: string;
  port: number;
  database: string;
  user: string;
}

/** Parses `postgres[ql]://user:password@host:port/database?…`; null when it is not such a URL. */
export function postgresTarget(url: string): PostgresTarget | null {
  let u: URL;
  try {
    u = new URL(url);
  } catch {
    return null; // the TypeError carries the input (and so the password): never rethrow it
  }
  if (u.protocol !== 'postgres:' && u.protocol !== 'postgresql:') return null;
  const port = u.port === '' ? 5432 : Number(u.port);
  // A unix socket directory goes in `?host=` with an empty authority: postgres:///db?host=/run/postgresql
  const host = u.hostname || u.searchParams.get('host') || 'localhost';
  const user = decodeURIComponent(u.username);
  return { host, port, database: decodeURIComponent(u.pathname.replace(/^\//, '')) || user, user };
}

/** `host:port/database`, for logs and errors. */
export function describeTarget(t: PostgresTarget): string {
  return `${t.host}:${t.port}/${t.database}`;
}

/**
 * The URL's password (decoded), so text that might echo it can be scrubbed; '' when there is none. libpq
 * also takes it as `?password=`.
 */
export function urlPassword(url: string): string {
  try {
    const u = new URL(url);
    return decodeURIComponent(u.password) || (u.searchParams.get('password') ?? '');
  } catch {
    return '';
  }
}
