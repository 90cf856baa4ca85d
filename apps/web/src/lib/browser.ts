// One seam for page reloads and for leaving the app, so tests can observe them (jsdom cannot
// navigate, and window.location cannot be stubbed there).
export const reloadPage = () => {
  window.location.reload();
};

// The static offline page (public/offline.html) in place of this one, which its retry comes back to.
export const showOfflinePage = () => {
  const here = window.location.pathname + window.location.search + window.location.hash;
  window.location.replace(`/offline.html?from=${encodeURIComponent(here)}`);
};

// Another site's page, e.g. the payment provider's hosted checkout.
export const goToUrl = (url: string) => {
  window.location.assign(url);
};
