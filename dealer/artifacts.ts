/**
 * The proving artifacts a dealer serves (and `npm run artifacts:export` copies to a static host): every zkey
 * and wasm that contracts/generated/manifest.json and seal.json name, addressed by the SHA-256 of its bytes.
 *
 * Files are hashed once, when the catalog is built (start-up): the URL is the content, so it must be the
 * hash of the bytes actually on disk, not a manifest's claim (verifiers.ts records no hash; a ceremony's
 * finalize does, and a file that disagrees with it is left out). Hashing streams at ~1 GB/s, so the 80 MB
 * of four rulesets costs well under a second. A file rebuilt in place later (another verifiers.ts run) is
 * noticed by its size and mtime when served: the catalog is scanned again and the old URL turns 404.
 * Only files inside the folder (symlinks resolved) are ever served or exported, whatever paths a manifest
 * records: the manifest may come from the deployer, and must not be able to publish the dealer's own files.
 */
import { createHash } from 'node:crypto';
import { createReadStream, existsSync, readFileSync, realpathSync } from 'node:fs';
import { type FileHandle, open, stat } from 'node:fs/promises';
import path from 'node:path';
import type { Readable } from 'node:stream';
import { readManifest, type SealArtifacts, VERIFIED_CIRCUITS } from '../contracts/manifest.ts';
import { type ArtifactKind, artifactFileName } from '../core/artifacts.ts';

type Hash = `0x${string}`;

/** One file on disk, as it was when hashed. */
export interface ArtifactFile {
  hash: Hash;
  kind: ArtifactKind;
  path: string;
  size: number;
  mtimeMs: number;
}

/** A circuit's pair of artifacts: what the index lists. `ruleset` is null for the ruleset-independent seal. */
export interface CatalogEntry {
  ruleset: string | null;
  rulesetHash: string | null;
  circuit: string;
  zkey: ArtifactFile;
  wasm: ArtifactFile;
}

/** An index row: `GET /v1/artifacts` and the exported index.json. URLs are relative to `urlPrefix`. */
export interface ArtifactIndexRow {
  ruleset: string | null;
  rulesetHash: string | null;
  circuit: string;
  zkey: Hash;
  wasm: Hash;
  zkeyBytes: number;
  wasmBytes: number;
  zkeyUrl: string;
  wasmUrl: string;
}

export interface CatalogOptions {
  /** Told about files left out (missing, or not the hash the manifest records). */
  warn?: (message: string) => void;
}

/** Streaming SHA-256 of a file, as 0x-hex (the same digest as core's artifactSha256 of its bytes). */
export async function sha256File(file: string): Promise<Hash> {
  const h = createHash('sha256');
  for await (const chunk of createReadStream(file)) h.update(chunk as Buffer);
  return `0x${h.digest('hex')}`;
}

/** What a manifest names: one circuit's zkey and wasm paths, and the hashes it may record. */
interface Named {
  ruleset: string | null;
  rulesetHash: string | null;
  circuit: string;
  files: Record<ArtifactKind, { conventional: string; recorded: string; sha256: string | undefined }>;
}

/** Every circuit the manifest and seal.json of `dir` name, seal first, rulesets by name. */
function namedArtifacts(dir: string): Named[] {
  const out: Named[] = [];
  const sealFile = path.join(dir, 'seal.json');
  if (existsSync(sealFile)) {
    const s = JSON.parse(readFileSync(sealFile, 'utf8')) as SealArtifacts;
    out.push({
      ruleset: null,
      rulesetHash: null,
      circuit: 'seal',
      files: {
        zkey: { conventional: path.join(dir, 'seal', 'seal.zkey'), recorded: s.zkey, sha256: s.zkeySha256 },
        wasm: { conventional: path.join(dir, 'seal', 'seal.wasm'), recorded: s.wasm, sha256: s.wasmSha256 },
      },
    });
  }
  const manifest = readManifest(dir);
  for (const name of Object.keys(manifest).sort()) {
    const r = manifest[name]!;
    for (const c of VERIFIED_CIRCUITS) {
      const v = r.verifiers[c];
      if (!v) continue;
      out.push({
        ruleset: name,
        rulesetHash: r.hash,
        circuit: c,
        files: {
          zkey: { conventional: path.join(dir, name, `${c}.zkey`), recorded: v.zkey, sha256: v.zkeySha256 },
          wasm: { conventional: path.join(dir, name, `${c}.wasm`), recorded: v.wasm, sha256: v.wasmSha256 },
        },
      });
    }
  }
  return out;
}

/**
 * The artifacts under one folder, by content hash. Build with `ArtifactCatalog.scan(dir)`; the route plugin
 * (routes/artifacts.ts) and the export script read it.
 */
export class ArtifactCatalog {
  readonly dir: string;
  readonly #warn: (m: string) => void;
  #entries: CatalogEntry[] = [];
  #byName = new Map<string, ArtifactFile>();
  #rescan: Promise<void> | undefined;

  private constructor(dir: string, o: CatalogOptions) {
    this.dir = dir;
    this.#warn = o.warn ?? (() => {});
  }

  /** Hashes every artifact `dir`'s manifest.json and seal.json name. */
  static async scan(dir: string, o: CatalogOptions = {}): Promise<ArtifactCatalog> {
    const c = new ArtifactCatalog(path.resolve(dir), o);
    await c.#scan();
    return c;
  }

  get entries(): readonly CatalogEntry[] {
    return this.#entries;
  }

  /** Distinct files (one per hash and kind). */
  get files(): ArtifactFile[] {
    return [...this.#byName.values()];
  }

  /** The index rows, URLs as `${urlPrefix}<hex>.<kind>`. */
  index(urlPrefix: string): ArtifactIndexRow[] {
    return this.#entries.map((e) => ({
      ruleset: e.ruleset,
      rulesetHash: e.rulesetHash,
      circuit: e.circuit,
      zkey: e.zkey.hash,
      wasm: e.wasm.hash,
      zkeyBytes: e.zkey.size,
      wasmBytes: e.wasm.size,
      zkeyUrl: urlPrefix + artifactFileName(e.zkey.hash, 'zkey'),
      wasmUrl: urlPrefix + artifactFileName(e.wasm.hash, 'wasm'),
    }));
  }

  /** The file whose SHA-256 is `hash` (0x-hex, lowercase), as hashed. */
  lookup(hash: Hash, kind: ArtifactKind): ArtifactFile | undefined {
    return this.#byName.get(artifactFileName(hash, kind));
  }

  /**
   * Opens the file with hash `hash` for serving, checked unchanged since hashed (same size and mtime, read
   * on the open descriptor, so a file replaced by rename is caught too). A changed file makes the catalog
   * scan again: the new content gets its own URL, the old one answers undefined (404).
   */
  async open(
    hash: Hash,
    kind: ArtifactKind,
  ): Promise<{ file: ArtifactFile; handle: FileHandle } | undefined> {
    for (let attempt = 0; attempt < 2; attempt++) {
      const file = this.lookup(hash, kind);
      if (!file) return undefined;
      let handle: FileHandle;
      try {
        handle = await open(file.path, 'r');
      } catch {
        await this.refresh();
        continue;
      }
      const s = await handle.stat();
      if (s.size === file.size && s.mtimeMs === file.mtimeMs) return { file, handle };
      await handle.close();
      await this.refresh();
    }
    return undefined;
  }

  /** The file's bytes as a stream (64 KiB chunks: never the whole file in memory). */
  static stream(handle: FileHandle): Readable {
    return handle.createReadStream({ autoClose: true });
  }

  /** Scans the folder again (concurrent callers share one scan). */
  refresh(): Promise<void> {
    this.#rescan ??= this.#scan().finally(() => {
      this.#rescan = undefined;
    });
    return this.#rescan;
  }

  async #scan(): Promise<void> {
    const entries: CatalogEntry[] = [];
    const byName = new Map<string, ArtifactFile>();
    /** Files shared by several circuits (identical wasm across rulesets) are hashed once. */
    const hashed = new Map<string, ArtifactFile>();
    const root = realpathSync(this.dir);
    const hashOne = async (n: Named, kind: ArtifactKind): Promise<ArtifactFile | undefined> => {
      const f = n.files[kind];
      const label = `${n.ruleset ?? 'seal'}/${n.circuit} ${kind}`;
      const found = [f.conventional, f.recorded].filter((p) => p && existsSync(p));
      // Whatever the manifest names (it may come from the deployer), only files inside the folder are
      // served and exported: never `/proc/self/environ` or the keys file, nor a symlink out to them.
      const where = found.map((p) => realpathSync(p)).find((p) => p.startsWith(`${root}${path.sep}`));
      if (!where) {
        this.#warn(
          found.length > 0
            ? `${label}: ${found[0]} is outside the artifacts folder ${this.dir}; left out`
            : `${label}: no file (${f.conventional}); left out`,
        );
        return undefined;
      }
      const known = hashed.get(where);
      if (known) return { ...known, kind };
      const s = await stat(where);
      const hash = await sha256File(where);
      if (f.sha256 !== undefined && f.sha256.toLowerCase() !== hash) {
        this.#warn(`${label}: ${where} has SHA-256 ${hash}, the manifest records ${f.sha256}; left out`);
        return undefined;
      }
      const file: ArtifactFile = { hash, kind, path: where, size: s.size, mtimeMs: s.mtimeMs };
      hashed.set(where, file);
      return file;
    };
    for (const n of namedArtifacts(this.dir)) {
      const [zkey, wasm] = [await hashOne(n, 'zkey'), await hashOne(n, 'wasm')];
      if (!zkey || !wasm) continue;
      entries.push({ ruleset: n.ruleset, rulesetHash: n.rulesetHash, circuit: n.circuit, zkey, wasm });
      for (const f of [zkey, wasm]) {
        const name = artifactFileName(f.hash, f.kind);
        if (!byName.has(name)) byName.set(name, f);
      }
    }
    this.#entries = entries;
    this.#byName = byName;
  }
}

/**
 * The catalog the dealer serves, or undefined (routes off) when `dir` does not exist or cannot be read (an
 * unreadable manifest is logged, not fatal: reveals matter more than artifact downloads). Logs what it
 * found: a served folder with nothing in it is a misconfiguration worth a warning.
 */
export async function openArtifactCatalog(
  dir: string,
  log: {
    info(o: object, m: string): void;
    warn(o: object, m: string): void;
    error(o: object, m: string): void;
  },
): Promise<ArtifactCatalog | undefined> {
  const abs = path.resolve(dir);
  if (!existsSync(abs)) {
    log.info({ dir: abs }, 'no artifacts folder: /v1/artifacts is off');
    return undefined;
  }
  const t0 = performance.now();
  let c: ArtifactCatalog;
  try {
    c = await ArtifactCatalog.scan(abs, { warn: (m) => log.warn({ dir: abs }, m) });
  } catch (e) {
    log.error(
      { dir: abs, reason: (e as Error).message },
      'cannot read the artifacts folder: /v1/artifacts is off',
    );
    return undefined;
  }
  const ms = Math.round(performance.now() - t0);
  if (c.entries.length === 0)
    log.warn({ dir: abs }, 'artifacts folder names no artifacts (no manifest.json?)');
  else
    log.info(
      { dir: abs, circuits: c.entries.length, files: c.files.length, ms },
      'serving proving artifacts',
    );
  return c;
}
