/**
 * Shuffle sharding (upstream's util/shufflesharding): a flow's hash deals it a hand of distinct
 * queues out of a deck, so two flows rarely share all their queues and one flow's backlog lands
 * on only a few of them. The dealing is upstream's: the hash is read as mixed-radix digits
 * (deckSize, deckSize-1, ...), each digit picking among the cards not dealt yet.
 */
import { createHash } from 'node:crypto';

/** upstream's MaxHashBits: the entropy a hand may need from the 64-bit hash. */
export const MAX_HASH_BITS = 60;

/** ceil(log2(deckSize) * handSize): the bits of hash a hand of this size uses up. */
export function requiredEntropyBits(deckSize: number, handSize: number): number {
  return Math.ceil(Math.log2(deckSize) * handSize);
}

/** The flow's 64-bit hash: SHA-256 of `<flow schema>\0<distinguisher>`, its first 8 bytes little-endian. */
export function hashFlow(flowSchema: string, distinguisher: string): bigint {
  const sum = createHash('sha256').update(flowSchema).update('\0').update(distinguisher).digest();
  return sum.readBigUInt64LE(0);
}

/** The queue indices (distinct, in dealing order) of the hand `hash` deals from `deckSize` cards. */
export function dealHand(hash: bigint, deckSize: number, handSize: number): number[] {
  const remainders: number[] = [];
  let h = hash;
  for (let i = 0; i < handSize; i++) {
    const radix = BigInt(deckSize - i);
    remainders.push(Number(h % radix));
    h /= radix;
  }
  const hand: number[] = [];
  for (let i = 0; i < handSize; i++) {
    let card = remainders[i] ?? 0;
    // Skips the cards dealt before, so every card is distinct.
    for (let j = i; j > 0; j--) if (card >= (remainders[j - 1] ?? 0)) card++;
    hand.push(card);
  }
  return hand;
}
