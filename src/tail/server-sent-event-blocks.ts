/** One server-sent event as it came: its type and its data lines joined, unparsed. */
export interface ServerSentEventBlock {
  type: string;
  data: string;
}

/**
 * The whole blocks at the start of `text`, and what is left after them (a block still arriving):
 * each block ends with a blank line; `event:` names it, `data:` lines hold its data; comments
 * (`: keep-alive`), `retry:` and blocks without data are skipped.
 */
export function takeServerSentEventBlocks(text: string): { blocks: ServerSentEventBlock[]; rest: string } {
  const blocks: ServerSentEventBlock[] = [];
  let end: number;
  while ((end = text.indexOf('\n\n')) !== -1) {
    const block = text.slice(0, end);
    text = text.slice(end + 2);
    let type = 'message';
    let data = '';
    for (const line of block.split('\n')) {
      if (line.startsWith('event:')) type = line.slice(6).trim();
      else if (line.startsWith('data:')) data += line.slice(5).trimStart();
    }
    if (data !== '') blocks.push({ type, data });
  }
  return { blocks, rest: text };
}

/** Reads the server-sent events of a response body as they come (takeServerSentEventBlocks). */
export async function* serverSentEventBlocks(body: AsyncIterable<Uint8Array>): AsyncGenerator<ServerSentEventBlock> {
  const decoder = new TextDecoder();
  let text = '';
  for await (const chunk of body) {
    const taken = takeServerSentEventBlocks(text + decoder.decode(chunk, { stream: true }));
    text = taken.rest;
    yield* taken.blocks;
  }
}
