/** The dealer's one bounded cache (dealer/lru.ts): order, refresh, expiry, the bound, and the `refuse` policy. */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { Lru } from '../../dealer/lru.ts';

/** An Lru on a clock the test moves. */
function clocked(o: Omit<ConstructorParameters<typeof Lru>[0], 'now'>) {
  const clock = { t: 0 };
  return { lru: new Lru<string, number>({ ...o, now: () => clock.t }), clock };
}

describe('Lru', () => {
  it('evicts the least recently inserted first when nothing was read', () => {
    const c = new Lru<string, number>({ max: 3 });
    for (const [i, k] of ['a', 'b', 'c', 'd', 'e'].entries()) c.set(k, i);
    assert.deepEqual(c.keys(), ['c', 'd', 'e']);
    assert.equal(c.get('a'), undefined);
    assert.equal(c.get('b'), undefined);
    assert.equal(c.evictions, 2);
  });

  it('a get (or has) refreshes: the entry read survives, the next oldest goes', () => {
    const c = new Lru<string, number>({ max: 3 });
    c.set('a', 1);
    c.set('b', 2);
    c.set('c', 3);
    assert.equal(c.get('a'), 1);
    c.set('d', 4);
    assert.deepEqual(c.keys(), ['c', 'a', 'd'], 'b was the least recently used');
    assert.ok(c.has('c'));
    c.set('e', 5);
    assert.deepEqual(c.keys(), ['d', 'c', 'e'], 'a was the oldest once c was read');
    assert.equal(c.get('a'), undefined);
    assert.equal(c.peek('c'), 3);
  });

  it('peek reads without refreshing; re-setting a key refreshes it and replaces its value', () => {
    const c = new Lru<string, number>({ max: 2 });
    c.set('a', 1);
    c.set('b', 2);
    assert.equal(c.peek('a'), 1);
    c.set('c', 3);
    assert.equal(c.peek('a'), undefined, 'peek did not save a');
    c.set('b', 20);
    c.set('d', 4);
    assert.deepEqual(c.keys(), ['b', 'd']);
    assert.equal(c.get('b'), 20);
  });

  it('size never goes above max, whatever the mix of operations', () => {
    const c = new Lru<number, number>({ max: 7 });
    let seed = 12345;
    const rand = (n: number) => {
      seed = (seed * 48271) % 2147483647; // Lehmer: exact in doubles
      return seed % n;
    };
    for (let i = 0; i < 5000; i++) {
      const k = rand(40);
      const op = rand(4);
      if (op === 0) c.get(k);
      else if (op === 1) c.delete(k);
      else c.set(k, i);
      assert.ok(c.size <= 7, `size ${c.size} after op ${i}`);
    }
    for (let k = 100; k < 110; k++) c.set(k, k);
    assert.equal(c.size, 7, 'full, not more');
    assert.deepEqual(c.keys(), [103, 104, 105, 106, 107, 108, 109]);
  });

  it('TTL: an entry expires ttl after it was set (a read does not extend it), and is then gone', () => {
    const { lru, clock } = clocked({ max: 10, ttl: 100 });
    lru.set('a', 1);
    clock.t = 60;
    lru.set('b', 2);
    assert.equal(lru.get('a'), 1);
    clock.t = 99;
    assert.equal(lru.get('a'), 1);
    clock.t = 100;
    assert.equal(lru.get('a'), undefined, 'expired at set time + ttl');
    assert.equal(lru.has('b'), true);
    assert.equal(lru.peek('b'), 2);
    clock.t = 160;
    assert.equal(lru.has('b'), false);
    assert.equal(lru.size, 0, 'expired entries read are dropped');
  });

  it('a per-entry expiry overrides the ttl; prune drops every expired entry at once', () => {
    const { lru, clock } = clocked({ max: 10 });
    lru.set('forever', 0);
    lru.set('a', 1, 10);
    lru.set('b', 2, 20);
    lru.set('c', 3, 30);
    clock.t = 20;
    assert.deepEqual(lru.values(), [0, 3], 'values() lists live entries only');
    assert.equal(lru.prune(), 2);
    assert.deepEqual(lru.keys(), ['forever', 'c']);
    clock.t = 1e12;
    assert.equal(lru.get('forever'), 0, 'no ttl: never expires');
  });

  it('an evict cache drops its least recently used entry even when an expired one sits elsewhere (no scan per insert)', () => {
    const { lru, clock } = clocked({ max: 2 });
    lru.set('live', 1);
    lru.set('short', 2, 5);
    clock.t = 10;
    lru.set('new', 3);
    assert.deepEqual(lru.keys(), ['short', 'new']);
    assert.equal(lru.evictions, 1, 'a live entry was evicted');
    lru.set('newer', 4);
    assert.equal(lru.evictions, 1, 'dropping an expired entry is no eviction');
  });

  it('refuse: a full cache keeps every live entry and refuses new keys until some expire', () => {
    const { lru, clock } = clocked({ max: 3, whenFull: 'refuse' });
    assert.equal(lru.set('n1', 1, 100), true);
    assert.equal(lru.set('n2', 2, 50), true);
    assert.equal(lru.set('n3', 3, 200), true);
    assert.equal(lru.set('n4', 4, 300), false, 'full of live entries: refused');
    assert.equal(lru.has('n4'), false);
    assert.equal(lru.set('n2', 22, 60), true, 'a key already held may be updated');
    for (const k of ['n1', 'n2', 'n3']) assert.ok(lru.has(k), `${k} still remembered`);
    assert.equal(lru.evictions, 0);
    clock.t = 60;
    assert.equal(lru.set('n4', 4, 300), true, 'n2 expired: its slot is free');
    assert.deepEqual(lru.keys().sort(), ['n1', 'n3', 'n4']);
    assert.equal(lru.set('n5', 5, 300), false, 'full again, nothing expired');
  });

  it('clear forgets everything; bad bounds are refused', () => {
    const c = new Lru<string, number>({ max: 2 });
    c.set('a', 1);
    c.clear();
    assert.equal(c.size, 0);
    assert.throws(() => new Lru({ max: 0 }), RangeError);
    assert.throws(() => new Lru({ max: 1.5 }), RangeError);
    assert.throws(() => new Lru({ max: 1, ttl: 0 }), RangeError);
  });
});
