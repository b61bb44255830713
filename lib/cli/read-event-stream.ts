/** One server-sent event as received. */
export interface ReceivedEvent {
  id: string | undefined;
  event: string;
  data: string;
}

/**
 * The events of a text/event-stream body, as the EventSource rules read them: frames end at a blank line,
 * `data:` lines join with newlines, comments (`:`) and `retry:` are not events. Ends when the body does.
 */
export async function* readEventStream(body: ReadableStream<Uint8Array>): AsyncGenerator<ReceivedEvent> {
  const decoder = new TextDecoder();
  let buffer = "";
  let frame: { id?: string; event?: string; data: string[] } = { data: [] };
  for await (const chunk of body as unknown as AsyncIterable<Uint8Array>) {
    buffer += decoder.decode(chunk, { stream: true });
    let newline = buffer.search(/\r\n|\r|\n/);
    // A lone \r at the end may be the first half of \r\n: wait for the next chunk to know.
    while (newline >= 0 && !(newline === buffer.length - 1 && buffer.endsWith("\r"))) {
      const line = buffer.slice(0, newline);
      buffer = buffer.slice(newline + (buffer.startsWith("\r\n", newline) ? 2 : 1));
      newline = buffer.search(/\r\n|\r|\n/);
      if (line === "") {
        if (frame.data.length > 0) yield { id: frame.id, event: frame.event ?? "message", data: frame.data.join("\n") };
        frame = { data: [] };
        continue;
      }
      if (line.startsWith(":")) continue;
      const colon = line.indexOf(":");
      const field = colon < 0 ? line : line.slice(0, colon);
      const value = colon < 0 ? "" : line.slice(colon + 1).replace(/^ /, "");
      if (field === "data") frame.data.push(value);
      else if (field === "event") frame.event = value;
      else if (field === "id") frame.id = value;
    }
  }
}
