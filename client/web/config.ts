/**
 * Where the page connects, from its address: `?dealer=URL` (default: the origin that served the page, i.e. the
 * dealer's own `/play`), `?rpc=URL` (the chain's JSON-RPC; optional with a browser wallet), `?contract=0x…`
 * (pin the game contract: the dealer's lobbies must be on it), `?allowLocalKey=1` (a generated key on a chain
 * other than 31337), `?mapProofRegistry=0x…` (the local chain's MapProofRegistry, whose address differs per run:
 * on other chains the page uses only the one it was built with, map-proof.ts). Bad values are refused with a message naming the parameter.
 */
export interface PageConfig {
  dealerUrl: string;
  rpcUrl: string | null;
  contract: string | null;
  allowLocalKey: boolean;
  /** The MapProofRegistry to read on the local chain 31337 (`?mapProofRegistry=`); ignored on other chains. */
  mapProofRegistry: string | null;
  /** Polling interval while waiting for others, ms (`?pollMs=`, 100..10000). */
  pollMs: number;
}

export class ConfigError extends Error {
  override name = 'ConfigError';
}

function httpUrl(name: string, v: string): string {
  let u: URL;
  try {
    u = new URL(v);
  } catch {
    throw new ConfigError(`?${name}=${v}: not a URL`);
  }
  if (u.protocol !== 'http:' && u.protocol !== 'https:') throw new ConfigError(`?${name}=${v}: not http(s)`);
  return v.replace(/\/+$/, '');
}

export function pageConfig(location: { search: string; origin: string }): PageConfig {
  const q = new URLSearchParams(location.search);
  const contract = q.get('contract');
  if (contract !== null && !/^0x[0-9a-fA-F]{40}$/.test(contract))
    throw new ConfigError(`?contract=${contract}: not an address (0x + 40 hex digits)`);
  const registry = q.get('mapProofRegistry');
  if (registry !== null && !/^0x[0-9a-fA-F]{40}$/.test(registry))
    throw new ConfigError(`?mapProofRegistry=${registry}: not an address (0x + 40 hex digits)`);
  const poll = q.get('pollMs');
  const pollMs = poll === null ? 500 : Number(poll);
  if (!Number.isInteger(pollMs) || pollMs < 100 || pollMs > 10_000)
    throw new ConfigError(`?pollMs=${poll}: a whole number of milliseconds, 100..10000`);
  const rpc = q.get('rpc');
  return {
    dealerUrl: httpUrl('dealer', q.get('dealer') ?? location.origin),
    rpcUrl: rpc === null || rpc === '' ? null : httpUrl('rpc', rpc),
    contract,
    allowLocalKey: q.get('allowLocalKey') === '1',
    mapProofRegistry: registry,
    pollMs,
  };
}
