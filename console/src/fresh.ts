// A page reads its data once and then follows the hub's events (hub.ts); on every connection it reads
// again. Two answers can then arrive out of order: a read begun on the page's start may answer after
// the read begun on the socket's connection, and an answer the server gave before an event may arrive
// after the page applied that event. Either would put the older state back on the screen until the next
// change, which on a quiet evening may be hours. A loader's reads go through one Reads: an answer older
// than one already used is not used, and where the page applies events as they come (an alarm into the
// list), the newest read during which such an event came is read once more.

/**
 * Reads at most this often while the page's events keep coming; then the answer is used (what it lacks
 * comes back with the next event about it, or the next connection).
 */
const ROUNDS = 5;

export class Reads {
  private begun = 0;
  private used = 0;

  /**
   * `events()` counts the events the page applies itself as they come (0 for a loader that reads again
   * on each event: its newer read follows anyway).
   */
  constructor(private readonly events: () => number) {}

  /**
   * The answer of `read`, or undefined when an answer of a newer read was used meanwhile, or when an
   * event came during this read and a newer read began (that one answers in its place). A failed read
   * throws, unless a newer read began meanwhile (that one answers or throws in its place).
   */
  async newest<T>(read: () => Promise<T>): Promise<T | undefined> {
    for (let round = 1; ; round++) {
      const mine = ++this.begun;
      const seen = this.events();
      let answer: T;
      try {
        answer = await read();
      } catch (err) {
        if (mine !== this.begun || mine < this.used) return undefined;
        throw err;
      }
      if (mine < this.used) return undefined;
      if (this.events() === seen || round >= ROUNDS) {
        this.used = mine;
        return answer;
      }
      // Only the newest read is read again: one begun later answers in its place (a read per event in a
      // storm of them must not become five).
      if (mine !== this.begun) return undefined;
    }
  }
}
