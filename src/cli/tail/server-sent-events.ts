/** One server-sent event: its type and its data (JSON). */
export interface ServerSentEvent {
  type: string;
  data: unknown;
}

/**
 * Reads the server-sent events of a response body as they come: each block ends with a blank line;
 * `event:` names it, `data:` lines hold its JSON; comments (`: keep-alive`) and `retry:` are skipped.
 */
export async function* serverSentEvents(body: ReadableStream<Uint8Array>): AsyncGenerator<ServerSentEvent> {
  const decoder = new TextDecoder();
  let text = '';
  for await (const chunk of body) {
    text += decoder.decode(chunk, { stream: true });
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
      if (data === '') continue;
      try {
        yield { type, data: JSON.parse(data) as unknown };
      } catch {
        // not JSON: not an event of the registry's
      }
    }
  }
}
