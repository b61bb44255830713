import { describe, expect, it } from "vitest";
import { responseExcerpt, storableText } from "@/lib/notify/webhooks/response-excerpt";

describe("webhook response excerpts", () => {
  it("turn NUL, control characters and invalid UTF-8 into U+FFFD and keep tabs and newlines", () => {
    const bytes = Buffer.concat([Buffer.from("a\0b\u0007c\td\r\n"), Buffer.from([0xc3, 0x28, 0xff])]);
    expect(responseExcerpt(bytes)).toBe("a\uFFFDb\uFFFDc\td\r\n\uFFFD(\uFFFD");
  });

  it("cut at the limit without splitting a character, and never leave a lone surrogate", () => {
    expect(responseExcerpt(Buffer.from("ab😀cd"), 3)).toBe("ab😀");
    expect(storableText("x\ud83d")).toBe("x");
    expect(storableText("\ude00y")).toBe("y");
  });
});
