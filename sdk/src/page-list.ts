import type { WithResponse } from "./transport.js";

/** A page of a paginated list, as the API returns it. */
export interface Page<Item extends { id: string }> {
  object: "list";
  data: Item[];
  has_more: boolean;
}

/**
 * What a paginated `list` returns: `await` it for the first page, or `for await` over it for every item of
 * every page (each next page is requested with `starting_after` = the last id, while `has_more`). Nothing is
 * requested until it is awaited or iterated.
 */
export class PageList<P extends Page<{ id: string }>>
  implements PromiseLike<WithResponse<P>>, AsyncIterable<P["data"][number]>
{
  private first: Promise<WithResponse<P>> | undefined;

  constructor(
    /** Fetches the page after `startingAfter`, or the caller's first page when it is undefined. */
    private readonly fetchPage: (startingAfter?: string) => Promise<WithResponse<P>>,
  ) {}

  private firstPage(): Promise<WithResponse<P>> {
    this.first ??= this.fetchPage();
    return this.first;
  }

  // biome-ignore lint/suspicious/noThenProperty: the list is deliberately awaitable as its first page
  then<A = WithResponse<P>, B = never>(
    onFulfilled?: ((page: WithResponse<P>) => A | PromiseLike<A>) | null,
    onRejected?: ((reason: unknown) => B | PromiseLike<B>) | null,
  ): Promise<A | B> {
    return this.firstPage().then(onFulfilled, onRejected);
  }

  async *[Symbol.asyncIterator](): AsyncGenerator<P["data"][number], void, undefined> {
    let page: P = await this.firstPage();
    for (;;) {
      yield* page.data;
      const last = page.data.at(-1);
      if (!page.has_more || !last) return;
      page = await this.fetchPage(last.id);
    }
  }

  /** Every item of every page, in order (mind the size of what you ask for). */
  async toArray(): Promise<P["data"][number][]> {
    const items: P["data"][number][] = [];
    for await (const item of this) items.push(item);
    return items;
  }
}

/** The query of one page: the caller's parameters, with the cursor of any page after the first. */
export function pageQuery<Q extends { starting_after?: string }>(params: Q, startingAfter: string | undefined): Q {
  return startingAfter === undefined ? params : { ...params, starting_after: startingAfter };
}
