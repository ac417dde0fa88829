import http from 'node:http';
import https from 'node:https';

export interface UploadAnswer {
  status: number;
  body: string;
}

const CHUNK = 64 * 1024;

/**
 * PUTs a packed component, in chunks so that `onProgress` follows the upload. The answer may come
 * before the whole body is sent (a refused token is answered at once): it wins over write errors.
 */
export function uploadPackage(url: URL, tarball: Buffer, token: string, onProgress: (sent: number, total: number) => void): Promise<UploadAnswer> {
  return new Promise((resolve, reject) => {
    let answered = false;
    const request = (url.protocol === 'https:' ? https : http).request(url, {
      method: 'PUT',
      headers: { 'content-type': 'application/gzip', 'content-length': tarball.length, authorization: `Bearer ${token}` },
    });
    request.on('response', (response) => {
      answered = true;
      const chunks: Buffer[] = [];
      response.on('data', (chunk: Buffer) => chunks.push(chunk));
      response.on('end', () => resolve({ status: response.statusCode ?? 0, body: Buffer.concat(chunks).toString('utf8') }));
      response.on('error', reject);
    });
    request.on('error', (error) => {
      if (!answered) reject(error);
    });
    const writeFrom = (offset: number): void => {
      while (offset < tarball.length && !answered) {
        const chunk = tarball.subarray(offset, offset + CHUNK);
        offset += chunk.length;
        const sent = offset;
        const flowing = request.write(chunk, () => onProgress(sent, tarball.length));
        if (!flowing) {
          request.once('drain', () => writeFrom(offset));
          return;
        }
      }
      request.end();
    };
    writeFrom(0);
  });
}
