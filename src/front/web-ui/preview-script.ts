/**
 * The live preview's script, inlined in the component page. The component renders in a frame with
 * `sandbox="allow-scripts"`: its own origin, so a tenant's HTML and scripts never run as the
 * registry's page. The frame loads the browser client from the registry (its requests carry
 * `Origin: null`, allowed by the default CORS setting) and reports `oc:rendered` / `oc:error` back.
 */
export const PREVIEW_SCRIPT = `((config)=>{
const form=document.getElementById('preview-form'),frame=document.getElementById('preview'),status=document.getElementById('preview-status'),shown=document.getElementById('preview-href');
const attribute=(text)=>text.replace(/&/g,'&amp;').replace(/"/g,'&quot;').replace(/</g,'&lt;');
const render=()=>{const query=new URLSearchParams();for(const control of form.elements){if(control.name&&control.value!=='')query.append(control.name,control.value)}
const search=query.toString(),href=config.baseUrl+encodeURIComponent(config.name)+'/'+encodeURIComponent(config.version)+(search?'?'+search:'');
shown.textContent=href;status.textContent='Rendering…';delete status.dataset.state;
frame.srcdoc='<!doctype html><html><head><meta charset="utf-8"><style>:root{color-scheme:light dark}body{margin:1rem;font-family:system-ui,sans-serif}</style>'
+'<script>window.oc={conf:{retryLimit:2,retryInterval:250}};for(const type of ["oc:rendered","oc:error"])document.addEventListener(type,(event)=>{const d=event.detail;'
+'parent.postMessage({type,name:d.name,version:d.version,status:d.status,code:d.code,error:d.error},"*")})<\\/script>'
+'<script src="'+attribute(config.clientUrl)+'"><\\/script></head><body><oc-component href="'+attribute(href)+'"></oc-component></body></html>'};
window.addEventListener('message',(event)=>{if(event.source!==frame.contentWindow||!event.data)return;const m=event.data;
if(m.type==='oc:rendered'){status.textContent='Rendered '+m.name+' '+m.version+'.';status.dataset.state='rendered'}
else if(m.type==='oc:error'){status.textContent='Failed'+(m.status?' with '+m.status+(m.code?' '+m.code:''):'')+': '+m.error;status.dataset.state='failed'}});
form.addEventListener('submit',(event)=>{event.preventDefault();render()});render()})`;
