// A photo or video to upload, in whatever form a program holds it: bytes (a Node Buffer, a
// Uint8Array, an ArrayBuffer), a Blob or File, or a stream (a web ReadableStream or a Node
// Readable, anything async-iterable of bytes). The API judges the file by its content, so no
// type needs to be given.

export type MediaFile =
  | Blob
  | ArrayBuffer
  | Uint8Array
  | ReadableStream<Uint8Array>
  | AsyncIterable<Uint8Array | string>;

async function collect(chunks: AsyncIterable<Uint8Array | string>): Promise<Blob> {
  const parts: BlobPart[] = [];
  for await (const chunk of chunks) {
    parts.push(typeof chunk === 'string' ? new TextEncoder().encode(chunk) : new Uint8Array(chunk));
  }
  return new Blob(parts);
}

/** The file as a Blob: a stream is read to its end first (a file is at most 100 MiB). */
export async function mediaBlob(file: MediaFile): Promise<Blob> {
  if (file instanceof Blob) return file;
  if (file instanceof ArrayBuffer) return new Blob([file]);
  if (file instanceof Uint8Array) return new Blob([new Uint8Array(file)]);
  if (typeof (file as ReadableStream).getReader === 'function' && !(Symbol.asyncIterator in file)) {
    const reader = (file as ReadableStream<Uint8Array>).getReader();
    return await collect({
      async *[Symbol.asyncIterator]() {
        for (;;) {
          const { done, value } = await reader.read();
          if (done) return;
          yield value;
        }
      },
    });
  }
  return await collect(file as AsyncIterable<Uint8Array | string>);
}

/** The multipart body of an upload: the file in the field `file`. */
export async function mediaForm(file: MediaFile, filename = 'upload'): Promise<FormData> {
  const form = new FormData();
  form.append('file', await mediaBlob(file), filename);
  return form;
}
