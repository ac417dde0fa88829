import { serverSentEventBlocks } from '../../tail/server-sent-event-blocks';

/** One server-sent event: its type and its data (JSON). */
export interface ServerSentEvent {
  type: string;
  data: unknown;
}

/** Reads the server-sent events of a response body as they come, each one's data parsed as JSON (an event whose data is not is skipped). */
export async function* serverSentEvents(body: ReadableStream<Uint8Array>): AsyncGenerator<ServerSentEvent> {
  for await (const { type, data } of serverSentEventBlocks(body)) {
    try {
      yield { type, data: JSON.parse(data) as unknown };
    } catch {
      // not JSON: not an event of the registry's
    }
  }
}
