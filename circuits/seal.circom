pragma circom 2.1.0;

include "poseidon.circom";
include "bitify.circom";
include "babyjub.circom";
include "escalarmulfix.circom";
include "escalarmulany.circom";

// SealedShare (ruleset-independent): the share a player posts at sealedReveal opens, under the
// dealer's Baby Jubjub seal key, to the preimage of its commitment (verifiable encryption,
// core/sealed.ts). With e the ephemeral secret:
//   E = e·BASE8,  S = e·dealerKey,  ciphertext = share + Poseidon(S.x, S.y, gameId, player)  (mod p).
// The dealer recovers share = ciphertext − Poseidon(d·E, gameId, player), since d·E = e·d·BASE8 = S.
//
// Public signals cost the on-chain verifier ~6–7k gas each, so the game's id and the dealer's key
// enter as one sealContext = Poseidon(gameId, dealerKey) (stored by the contract at creation), and E
// as its y coordinate only: the dealer tries both points with that y, and only E opens the commitment.
//
// EscalarMulAny assumes its point is in the prime subgroup and not the identity (otherwise its
// Montgomery adders can hit an exceptional case and S is not fixed by e). For such a point none
// arises: inside a 148-bit segment the adder sees a·P and 2^i·P with 1 ≤ a < 2^i ≤ 2^147 < l, and
// segments are joined by complete Edwards additions. The assumption holds for every game
// that matters: the SDK refuses a game whose dealer key is not in the prime subgroup or is the
// identity (checkSealPublicKey) before committing a share, and a dealer that posts a bad key only
// hurts itself (players do not join, or it cannot open what they seal). BabyCheck still pins the
// key to the curve. Any e < 2^253 gives E and S for the same scalar, so e need not be below l.
template SealedShare() {
    signal input sealContext;     // Poseidon(gameId, dealerKey): this game and its key (contract)
    signal input player;          // the sealing player's address as uint160 (msg.sender)
    signal input commitment;      // C_i = Poseidon(gameId, player, share), stored at commit
    signal input ephemeralY;      // y of E = e·BASE8, posted with the ciphertext
    signal input ciphertext;      // share + pad (mod p), posted

    signal input gameId;          // private, pinned by sealContext
    signal input dealerKey[2];    // private, pinned by sealContext: P = d·BASE8 (x, y)
    signal input share;           // private: r_i
    signal input ephemeralSecret; // private: e, 253 bits

    // The context names this game and this key.
    signal context <== Poseidon(3)([gameId, dealerKey[0], dealerKey[1]]);
    sealContext === context;

    // The share opens the commitment.
    signal opened <== Poseidon(3)([gameId, player, share]);
    commitment === opened;

    // e as 253 bits: 2^253 < p, so no aliasing.
    signal bits[253] <== Num2Bits(253)(ephemeralSecret);

    // E = e·BASE8; its y is public.
    var BASE8[2] = [
        5299619240641551281634865583518297030282874472190772894086521144482721001553,
        16950150798460657717958625567821834550301663161624707787222815936182638968203
    ];
    signal E[2] <== EscalarMulFix(253, BASE8)(bits);
    ephemeralY === E[1];

    // S = e·P, with P on the curve.
    BabyCheck()(dealerKey[0], dealerKey[1]);
    signal S[2] <== EscalarMulAny(253)(bits, dealerKey);

    // ciphertext = share + Poseidon(S.x, S.y, gameId, player).
    signal pad <== Poseidon(4)([S[0], S[1], gameId, player]);
    ciphertext === share + pad;
}
