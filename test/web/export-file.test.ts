/**
 * The export file (client/web/export-file.ts): sealed under a passphrase on top of the wallet's key, so a phishing
 * page holding the wallet's signature of the fixed vault text and the file still cannot open the session key.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import {
  EXPORT_KDF,
  ExportFileError,
  exportText,
  MIN_PASSPHRASE,
  openExport,
} from '../../client/web/export-file.ts';

const PASS = 'correct horse battery';
const blobs = { session: 'SESSION-BLOB', state: 'STATE-BLOB' };
const file = await exportText(blobs, PASS);
const parsed = () => JSON.parse(file) as Record<string, any>;
const refused = (p: Promise<unknown>, re: RegExp) =>
  assert.rejects(p, (e: unknown) => e instanceof ExportFileError && re.test(e.message));

describe('export file', () => {
  it('round trip: the blobs come back with the passphrase, and neither they nor it are in the file', async () => {
    assert.deepEqual(await openExport(file, PASS), { ...blobs, protected: true });
    for (const secret of [PASS, 'SESSION', 'STATE', '"session"', '"state"'])
      assert.ok(!file.includes(secret), secret);
    const o = parsed();
    assert.equal(o.v, 2);
    assert.deepEqual(
      { N: o.kdf.N, r: o.kdf.r, p: o.kdf.p },
      EXPORT_KDF,
      'the page writes the production cost',
    );
    // A fresh salt and nonce each time: two exports of the same state differ.
    assert.notEqual(await exportText(blobs, PASS), file);
  });

  it('the same passphrase typed in another Unicode form opens it (NFKC)', async () => {
    const f = await exportText(blobs, 'ｐａｓｓｐｈｒａｓｅ！');
    assert.equal((await openExport(f, 'passphrase!')).session, blobs.session);
  });

  it('a short or empty passphrase is refused at export', async () => {
    await refused(exportText(blobs, 'x'.repeat(MIN_PASSPHRASE - 1)), /at least 10 characters/);
    await refused(exportText(blobs, ''), /at least/);
  });

  it('a wrong or missing passphrase opens nothing', async () => {
    await refused(openExport(file, `${PASS}!`), /wrong passphrase, or the export file was changed/);
    await refused(openExport(file, ''), /protected by a passphrase/);
  });

  it('every edited field is refused: box, nonce, salt, and the header as associated data', async () => {
    const edit = (f: (o: Record<string, any>) => void) => {
      const o = parsed();
      f(o);
      return JSON.stringify(o);
    };
    const flip = (b64: string) => {
      const b = Buffer.from(b64, 'base64');
      b[b.length >> 1]! ^= 1;
      return b.toString('base64');
    };
    await refused(
      openExport(
        edit((o) => void (o.box = flip(o.box))),
        PASS,
      ),
      /wrong passphrase, or .* changed/,
    );
    await refused(
      openExport(
        edit((o) => void (o.nonce = flip(o.nonce))),
        PASS,
      ),
      /wrong passphrase, or .* changed/,
    );
    await refused(
      openExport(
        edit((o) => void (o.kdf.salt = flip(o.kdf.salt))),
        PASS,
      ),
      /wrong passphrase, or .* changed/,
    );
    // A higher N within bounds derives another key: refused by the tag, not accepted under the other cost.
    await refused(
      openExport(
        edit((o) => void (o.kdf.N *= 2)),
        PASS,
      ),
      /wrong passphrase, or .* changed/,
    );
    await refused(
      openExport(
        edit((o) => void (o.nonce = o.nonce.slice(4))),
        PASS,
      ),
      /nonce is not 24 bytes/,
    );
    await refused(
      openExport(
        edit((o) => void (o.box = '%%')),
        PASS,
      ),
      /box is not base64/,
    );
    await refused(
      openExport(
        edit((o) => void (o.kdf.name = 'pbkdf2')),
        PASS,
      ),
      /unknown key derivation/,
    );
  });

  it('hostile KDF parameters are refused before any derivation: no downgrade, no huge allocation', async () => {
    const cases: [Record<string, unknown>, RegExp][] = [
      [{ N: EXPORT_KDF.N / 2 }, /N=65536/],
      [{ N: 2 ** 30 }, /N=1073741824/],
      [{ N: 3 * 2 ** 16 }, /N=196608/],
      [{ N: -1 }, /N=-1/],
      [{ N: '131072' }, /this page takes N from 131072 to 262144/],
      [{ r: 1 }, /r=1/],
      [{ r: 1024 }, /r=1024/],
      [{ p: 0 }, /p=0/],
      [{ p: 64 }, /p=64/],
    ];
    for (const [change, re] of cases) {
      const o = parsed();
      Object.assign(o.kdf, change);
      // The bounds message, not a derivation's failure (2^30 would ask scrypt for 128 GiB): checked before deriving.
      await refused(openExport(JSON.stringify(o), PASS), re);
    }
  });

  it('a version 1 file (no passphrase, from an older page) still opens, marked unprotected', async () => {
    const v1 = JSON.stringify({ shroud: 'shroud-web-game', v: 1, session: 'S', state: null });
    assert.deepEqual(await openExport(v1, ''), { session: 'S', state: null, protected: false });
  });

  it('anything else is refused with a clear message', async () => {
    await refused(openExport('{', PASS), /not a Shroud game export \(not JSON\)/);
    await refused(openExport('{"shroud":"player-state"}', PASS), /not a Shroud game export/);
    await refused(openExport('{"shroud":"shroud-web-game","v":3}', PASS), /version 3 is not 1 or 2/);
    await refused(openExport('{"shroud":"shroud-web-game","v":1,"session":1}', PASS), /damaged/);
  });
});
