// Choosing a CSV file, or dropping it on the box: the file goes to `onFile` either way.
import type { ComponentChildren } from 'preact';
import { useState } from 'preact/hooks';

export function FileDrop({ chosen, hint, onFile }: {
  /** Whether a file was chosen already (the button then offers another). */
  chosen: boolean;
  hint: ComponentChildren;
  onFile: (file: File | undefined) => void;
}) {
  const [over, setOver] = useState(false);
  return (
    <div
      class={`dropzone${over ? ' over' : ''}`}
      onDragOver={(e) => {
        e.preventDefault();
        setOver(true);
      }}
      onDragLeave={() => setOver(false)}
      onDrop={(e) => {
        e.preventDefault();
        setOver(false);
        onFile(e.dataTransfer?.files[0]);
      }}
    >
      <input
        id='csv-file'
        class='visually-hidden file-input'
        type='file'
        accept='.csv,text/csv,text/plain'
        onChange={(e) => {
          onFile(e.currentTarget.files?.[0]);
          // The same file chosen again is read again.
          e.currentTarget.value = '';
        }}
      />
      <label for='csv-file' class='button'>{chosen ? 'Choose another CSV file' : 'Choose a CSV file'}</label>
      <p class='muted small'>{hint}</p>
    </div>
  );
}
