import { describe, expect, it } from "vitest";
import { changeFeed } from "@/lib/platform/db/change-feed";
import { getPool } from "@/lib/platform/db/client";
import { until } from "../helpers/started-service";

/** What one key's subscriber heard, in order. */
function hear(channel: string, key: string) {
  const heard: (string | null)[] = [];
  const stop = changeFeed().subscribe(channel, key, (detail) => heard.push(detail));
  return { heard, stop };
}

const notify = (channel: string, payload: string) => getPool().query("select pg_notify($1, $2)", [channel, payload]);

describe("the change feed (one listening connection per process)", () => {
  it(
    "hands a key's notification to its subscribers when the transaction commits, and nothing of a rolled-back one " +
      "or of other keys",
    async () => {
      const channel = `feed_test_${Date.now()}`;
      const mine = hear(channel, "k1");
      const other = hear(channel, "k2");
      await changeFeed().whenListening(channel);
      await until("the wake after LISTEN", async () => mine.heard.length > 0, 5_000);
      mine.heard.length = 0;

      const open = await getPool().connect();
      try {
        await open.query("begin");
        await open.query("select pg_notify($1, $2)", [channel, "k1 at-commit"]);
        const rolledBack = await getPool().connect();
        await rolledBack.query("begin");
        await rolledBack.query("select pg_notify($1, $2)", [channel, "k1 rolled-back"]);
        await rolledBack.query("rollback");
        rolledBack.release();
        await notify(channel, "k1 first");
        await until("the committed notification", async () => mine.heard.includes("first"), 5_000);
        // The open transaction's notification is not out yet: it leaves with the commit.
        expect(mine.heard).toEqual(["first"]);
        await open.query("commit");
      } finally {
        open.release();
      }
      await until("the notification at commit", async () => mine.heard.length === 2, 5_000);
      await notify(channel, "k1");
      await until("a notification without detail", async () => mine.heard.length === 3, 5_000);
      expect(mine.heard).toEqual(["first", "at-commit", null]);
      expect(other.heard.filter((d) => d !== null)).toEqual([]);
      mine.stop();
      other.stop();
    },
  );

  it(
    "after its connection is killed, it reconnects and wakes every " + "subscriber to read again, and keeps delivering",
    async () => {
      const channel = `feed_kill_${Date.now()}`;
      const sub = hear(channel, "k");
      await changeFeed().whenListening(channel);
      await until("the wake after LISTEN", async () => sub.heard.length > 0, 5_000);
      sub.heard.length = 0;
      const pid = changeFeed().pid!;
      expect(pid).toBeGreaterThan(0);
      // Terminated and gone (pg_terminate_backend waits up to 5 s for it) before the notification is sent:
      // nobody listens when it commits, so the subscriber hears of it only through the wake on reconnect.
      const { rows } = await getPool().query("select pg_terminate_backend($1, 5000) as gone", [pid]);
      expect(rows[0].gone).toBe(true);
      await notify(channel, "k lost");
      await until("the wake on reconnect", async () => sub.heard.length > 0, 10_000);
      expect(sub.heard).toEqual([null]);
      expect(changeFeed().pid).not.toBe(pid);
      await changeFeed().whenListening(channel);
      await notify(channel, "k after");
      await until("a notification after the reconnect", async () => sub.heard.includes("after"), 5_000);
      sub.stop();
    },
  );
});
