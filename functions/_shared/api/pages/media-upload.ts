// "Add photos or videos" on the thank-you page of a review sent from a hosted form: the review's
// upload token stays in the page (never in a URL), and a small script with the page's nonce sends
// each file to POST /api/v1/reviews/:id/media with it: a preview, a progress bar, large photos made
// smaller in the browser first (to the longest side the API stores, JPEG), and the API's refusals in
// plain words. The limits it states are core/media/limits.ts's.
// Without JavaScript the page says that adding them needs it.
import { markup, raw, type SafeHtml } from './html.ts';
import { MAX_FILE_BYTES, MAX_MEDIA_PER_REVIEW, mebibytes, STORED_LONGEST_SIDE } from '../../core/media/limits.ts';

/** The script, as plain ES2017 for any browser that runs it. */
const SCRIPT = `(function () {
  var box = document.getElementById('add-media');
  if (!box || !window.XMLHttpRequest || !window.FormData || !window.Promise) return;
  box.hidden = false;
  var note = document.getElementById('media-needs-js');
  if (note) note.hidden = true;
  var input = box.querySelector('input[type=file]');
  var list = box.querySelector('ul');
  var status = box.querySelector('[role=status]');
  var token = box.getAttribute('data-token');
  var url = box.getAttribute('data-url');
  var LONGEST = ${STORED_LONGEST_SIDE};
  function plain(message, code) {
    var text = String(message || (code === 413 ? 'the file is too large' : 'the file could not be added'));
    text = text.replace(/^[A-Za-z-]+: /, '');
    return text.charAt(0).toUpperCase() + text.slice(1) + (/[.!?]$/.test(text) ? '' : '.');
  }
  function shrink(file) {
    return new Promise(function (resolve) {
      if (!/^image\\/(jpeg|png|webp)$/.test(file.type) || !window.URL) return resolve(file);
      var src = URL.createObjectURL(file);
      var img = new Image();
      img.onload = function () {
        var scale = Math.min(1, LONGEST / Math.max(img.naturalWidth, img.naturalHeight));
        URL.revokeObjectURL(src);
        if (scale >= 1) return resolve(file);
        var canvas = document.createElement('canvas');
        canvas.width = Math.round(img.naturalWidth * scale);
        canvas.height = Math.round(img.naturalHeight * scale);
        canvas.getContext('2d').drawImage(img, 0, 0, canvas.width, canvas.height);
        canvas.toBlob(function (blob) {
          resolve(blob ? new File([blob], file.name.replace(/\\.[^.]*$/, '') + '.jpg', { type: 'image/jpeg' }) : file);
        }, 'image/jpeg', 0.85);
      };
      img.onerror = function () { URL.revokeObjectURL(src); resolve(file); };
      img.src = src;
    });
  }
  function send(file, original) {
    return new Promise(function (resolve) {
      var item = document.createElement('li');
      if (/^image\\//.test(file.type)) {
        var preview = document.createElement('img');
        preview.src = URL.createObjectURL(file);
        preview.alt = 'Preview of ' + original.name;
        preview.onerror = function () { item.removeChild(preview); };
        item.appendChild(preview);
      }
      var name = document.createElement('span');
      name.className = 'media-name';
      name.textContent = original.name;
      item.appendChild(name);
      var bar = document.createElement('progress');
      bar.max = 100;
      bar.value = 0;
      bar.setAttribute('aria-label', 'Sending ' + original.name);
      item.appendChild(bar);
      var said = document.createElement('p');
      item.appendChild(said);
      list.appendChild(item);
      var xhr = new XMLHttpRequest();
      xhr.open('POST', url);
      xhr.setRequestHeader('X-Upload-Token', token);
      xhr.upload.onprogress = function (e) { if (e.lengthComputable) bar.value = Math.round(e.loaded * 100 / e.total); };
      xhr.onload = function () {
        var body = {};
        try { body = JSON.parse(xhr.responseText); } catch (e) { body = {}; }
        if (xhr.status === 200 || xhr.status === 201) {
          bar.value = 100;
          said.textContent = body.is_hidden ? 'Added. The business shows it once they have looked at it.' : 'Added.';
          resolve(true);
        } else {
          item.removeChild(bar);
          said.className = 'error';
          said.textContent = 'Not added: ' + plain(body.message, xhr.status);
          resolve(false);
        }
      };
      xhr.onerror = function () {
        item.removeChild(bar);
        said.className = 'error';
        said.textContent = 'Not added: the connection failed. Try again.';
        resolve(false);
      };
      var form = new FormData();
      form.append('file', file, file.name);
      xhr.send(form);
    });
  }
  input.addEventListener('change', function () {
    var files = Array.prototype.slice.call(input.files || []);
    input.disabled = true;
    status.textContent = 'Sending ' + files.length + (files.length === 1 ? ' file…' : ' files…');
    var added = 0;
    files.reduce(function (done, file) {
      return done.then(function () { return shrink(file); })
        .then(function (ready) { return send(ready, file); })
        .then(function (ok) { if (ok) added++; });
    }, Promise.resolve()).then(function () {
      status.textContent = added === files.length ? 'Thank you: ' + added + (added === 1 ? ' file added.' : ' files added.')
        : added + ' of ' + files.length + ' added; see why below.';
      input.value = '';
      input.disabled = false;
    });
  });
})();`;

/** The styles of the section, after the pages' own. */
export const MEDIA_STYLE = markup`.media-add{margin-top:2rem}
.media-add input[type=file]{display:block;margin:.5rem 0 1rem;font:inherit;max-width:100%}
.media-sent{list-style:none;padding:0;display:grid;gap:.75rem}
.media-sent li{border:1px solid #d0d7de;border-radius:.4rem;padding:.75rem;overflow-wrap:anywhere}
.media-sent img{display:block;max-width:100%;max-height:12rem;margin-bottom:.5rem;border-radius:.25rem}
.media-sent progress{display:block;width:100%;margin-top:.5rem}
.media-sent p{margin:.5rem 0 0}
.media-sent .error{color:#a40e26;font-weight:600}`;

/** The section and its script; `nonce` is the one the page's Content-Security-Policy names. */
export function addMediaSection(reviewId: string, token: string, nonce: string): SafeHtml {
  return markup`<section id="add-media" class="media-add" hidden aria-labelledby="media-heading"
 data-url="/api/v1/reviews/${reviewId}/media" data-token="${token}">
<h2 id="media-heading">Add photos or videos</h2>
<p>Up to ${MAX_MEDIA_PER_REVIEW} photos (JPEG, PNG or WebP, up to ${
    mebibytes(MAX_FILE_BYTES.image)
  } MB) or videos (MP4 or WebM, up to ${
    mebibytes(MAX_FILE_BYTES.video)
  } MB). Large photos are made smaller before they are sent.</p>
<label for="media-file">Choose photos or videos</label>
<input id="media-file" type="file" multiple accept="image/jpeg,image/png,image/webp,video/mp4,video/webm">
<p role="status" aria-live="polite"></p>
<ul class="media-sent"></ul>
</section>
<p id="media-needs-js" class="fine">Adding photos or videos to your review needs JavaScript in this browser.</p>
<script nonce="${nonce}">${raw(SCRIPT)}</script>`;
}
