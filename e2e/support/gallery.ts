import { mkdirSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Page } from 'playwright-core';

// The gallery of the browser flows: every view a flow keeps goes to test-results/gallery (PNG), and
// those the README shows also to GALLERY_DIR (JPEG) when it is set (`npm run gallery`).

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const galleryDir = path.join(root, 'test-results/gallery');

export const keepView = async (
  page: Page,
  name: string,
  // The name of the README's copy (docs/gallery/<readmeName>.jpg); none keeps no copy.
  readmeName?: string,
) => {
  mkdirSync(galleryDir, { recursive: true });
  await page.screenshot({ path: path.join(galleryDir, `${name}.png`) });
  const readme = process.env.GALLERY_DIR;
  if (readme && readmeName)
    await page.screenshot({
      path: path.resolve(readme, `${readmeName}.jpg`),
      type: 'jpeg',
      quality: 80,
      // A phone's high-density screen would make the README's copy two or three times as large;
      // one image pixel per CSS pixel keeps it small and sharp enough.
      scale: 'css',
    });
};
