/**
 * Which settings in a URL's query carry a credential, by name: one rule for every server URL Sightline prints
 * (the team store's PostgreSQL, its bucket, the queue's Redis).
 *
 * libpq's connection parameters name two secrets, `password` and `sslpassword` (the client key's passphrase);
 * any name holding `password` (`PGPASSWORD`, `Password`, a driver's `db_password`), `passwd`, `passphrase`, `secret`,
 * `token` or `credential` counts too, case-insensitively, since a driver or a proxy may take one under its own name.
 * Paths are not secrets and stay shown: `passfile`, `sslkey`, `sslcert`, `sslrootcert` name files whose content the
 * client reads and nobody prints, and showing them is how a person sees which file was used.
 */

const CREDENTIAL_NAME = /password|passwd|passphrase|secret|token|credential/i;

export const MASK = '***';

/** Whether a query setting of this name (as written or percent-decoded) holds a credential. */
export function isCredentialParameter(name: string): boolean {
  return CREDENTIAL_NAME.test(name) || CREDENTIAL_NAME.test(decodedQueryPart(name));
}

/**
 * The query (`?a=1&password=x`, or '' for none) with the value of every credential setting replaced by ***; other
 * settings as written. `maskAll` masks every value: for a URL that takes no settings, where any value may be a secret.
 */
export function maskedQuery(search: string, options: { maskAll?: boolean } = {}): string {
  if (search === '' || search === '?') return search;
  const pairs = search.replace(/^\?/, '').split('&');
  return `?${pairs
    .map((pair) => {
      const equals = pair.indexOf('=');
      if (equals < 0) return pair;
      const name = pair.slice(0, equals);
      return options.maskAll === true || isCredentialParameter(name) ? `${name}=${MASK}` : pair;
    })
    .join('&')}`;
}

/** The values of the credential settings of a query, as written and as decoded (what the client uses). */
export function credentialValues(search: string): string[] {
  const values: string[] = [];
  for (const pair of search.replace(/^\?/, '').split('&')) {
    const equals = pair.indexOf('=');
    if (equals < 0 || !isCredentialParameter(pair.slice(0, equals))) continue;
    const written = pair.slice(equals + 1);
    values.push(written, decodedQueryPart(written));
  }
  return values.filter((value) => value !== '');
}

/** A query's name or value as URLSearchParams reads it: `+` a space, escapes decoded (a malformed one kept). */
function decodedQueryPart(text: string): string {
  const spaced = text.replace(/\+/g, ' ');
  try {
    return decodeURIComponent(spaced);
  } catch {
    return spaced;
  }
}
