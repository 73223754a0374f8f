// The profile and product pages' photo viewer: without scripts a thumbnail is a link to the photo
// at full size; with them, this one inline script (allowed by its hash in the pages'
// Content-Security-Policy, which allows no other) opens it in a modal dialog instead: labelled,
// focus inside and kept there by Tab, the arrows and two buttons move between the review's photos,
// Escape or "Close" closes it and gives focus back to the shown photo's link. A click with a
// modifier key still opens the link as the browser would.
import { createHash } from 'node:crypto';
import { raw } from './html.ts';

const SOURCE = `(()=>{let d,img,list,at=0;
const show=(i)=>{at=(i+list.length)%list.length;img.src=list[at].href;img.alt='Photo '+(at+1)+' of '+list.length;d.setAttribute('aria-label',img.alt)};
document.addEventListener('click',(e)=>{const a=e.target.closest&&e.target.closest('.media a.photo');
if(!a||e.button||e.ctrlKey||e.metaKey||e.shiftKey||e.altKey)return;e.preventDefault();
if(!d){d=document.createElement('dialog');d.className='viewer';d.setAttribute('aria-modal','true');
d.innerHTML='<img alt=""><div><button type="button" value="-1" aria-label="Previous photo">←</button><button type="button" value="1" aria-label="Next photo">→</button><button type="button" value="0">Close</button></div>';
img=d.firstChild;document.body.append(d);
d.addEventListener('click',(ev)=>{const b=ev.target.closest('button');if(b){+b.value?show(at+ +b.value):d.close()}});
d.addEventListener('close',()=>list[at].focus());
d.addEventListener('keydown',(ev)=>{const keys=[...d.querySelectorAll('button:not([hidden])')],n=keys.indexOf(ev.target);
if(ev.key==='Tab'){ev.preventDefault();keys[(n+(ev.shiftKey?keys.length-1:1))%keys.length].focus()}
if(ev.key==='ArrowRight'||ev.key==='ArrowLeft')show(at+(ev.key==='ArrowRight'?1:-1))})}
list=[...a.closest('.media').querySelectorAll('a.photo')];
for(const b of d.querySelectorAll('[value]:not([value="0"])'))b.hidden=list.length<2;
show(list.indexOf(a));d.showModal()})})()`;

/** The script element the pages carry when they show a photo. */
export const PHOTO_VIEWER = raw(`<script>${SOURCE}</script>`);

/** Its hash, the only script the public pages' Content-Security-Policy allows. */
export const PHOTO_VIEWER_CSP = `'sha256-${createHash('sha256').update(SOURCE).digest('base64')}'`;
