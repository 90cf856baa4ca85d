// The offline page's Retry button.
// The service worker shows the page in place of the one that failed (reload it); the app sends
// the browser to /offline.html?from=<its path> (go back there: a path of this site only).
(() => {
  const retry = () => {
    if (window.location.pathname !== '/offline.html') return window.location.reload();
    const from = new URLSearchParams(window.location.search).get('from') ?? '';
    window.location.replace(/^\/(?![/\\])/.test(from) ? from : '/tickets');
  };
  document.getElementById('retry').addEventListener('click', retry);
})();
