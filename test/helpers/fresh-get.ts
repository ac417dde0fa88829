import http from 'node:http';

/** A GET on a connection of its own: the kernel hands each new connection to one of the front threads' sockets. */
export function freshGet(url: string): Promise<{ status: number; text: string }> {
  return new Promise((resolve, reject) => {
    http
      .get(url, { agent: false }, (response) => {
        let text = '';
        response.setEncoding('utf8');
        response.on('data', (chunk: string) => (text += chunk));
        response.on('end', () => resolve({ status: response.statusCode!, text }));
      })
      .on('error', reject);
  });
}
