/** Shared by the lobby tests: a game creator that dies like a killed dealer process. */
import type { GameCreator } from '../../dealer/chain/types.ts';

/** Where the dealer process dies while creating a lobby's game. */
export type CrashPoint = 'before-sign' | 'after-persist' | 'after-broadcast';

/**
 * The chain as a dealer process that dies at `at` sees it: every creation stops there (nothing after that
 * point ever runs in this process). `after-persist`: the signed createGame is stored, never broadcast;
 * `after-broadcast`: it is mined, its outcome never recorded. Restart the dealer with the real creator.
 */
export function dyingCreator(chain: GameCreator, at: CrashPoint): GameCreator {
  const die = (): never => {
    throw new Error(`dealer killed (${at})`);
  };
  return {
    dealer: chain.dealer,
    async submitCreateGame(p, persist) {
      if (at === 'before-sign') die();
      if (at === 'after-persist') {
        return chain.submitCreateGame(p, async (tx) => {
          await persist(tx);
          die();
        });
      }
      await chain.submitCreateGame(p, persist);
      return die();
    },
    createStatus: async () => die(),
    rebroadcast: async () => die(),
    registeredStartAreas: (hash) => chain.registeredStartAreas(hash),
  };
}
