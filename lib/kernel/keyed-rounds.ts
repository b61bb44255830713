type Answers<I, R> = Map<I, PromiseSettledResult<R>>;

/**
 * Groups the calls that arrive together into rounds, one round at a time per key: a call joins the round still
 * gathering for its key, which starts once the key's previous round has ended and the event loop has turned
 * (so calls made in the same turn share it). `run` answers every distinct item of its round; each call gets its
 * own item's answer, or its error.
 *
 * Used where one set of reads and one transaction can serve many callers (the payout jobs of a chain that run
 * together in a worker): the callers keep their own answers, retries and failures.
 */
export function keyedRounds<I, R>(
  run: (key: string, items: I[]) => Promise<Answers<I, R>>,
): (key: string, item: I) => Promise<R> {
  const gathering = new Map<string, { items: Set<I>; answers: Promise<Answers<I, R>> }>();
  const lastRound = new Map<string, Promise<void>>();

  const open = (key: string) => {
    const items = new Set<I>();
    const answers = (lastRound.get(key) ?? Promise.resolve())
      .then(() => new Promise<void>((resolve) => setImmediate(resolve)))
      .then(() => {
        // Closed: a call from now on opens the key's next round, which waits for this one to end.
        gathering.delete(key);
        return run(key, [...items]);
      });
    const ended = answers.then(
      () => undefined,
      () => undefined,
    );
    lastRound.set(key, ended);
    void ended.then(() => {
      if (lastRound.get(key) === ended) lastRound.delete(key);
    });
    const round = { items, answers };
    gathering.set(key, round);
    return round;
  };

  return async (key, item) => {
    const round = gathering.get(key) ?? open(key);
    round.items.add(item);
    const answer = (await round.answers).get(item);
    if (!answer) throw new Error(`the round for ${key} gave no answer for ${String(item)}`);
    if (answer.status === "rejected") throw answer.reason;
    return answer.value;
  };
}
