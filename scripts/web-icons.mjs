// scripts/web-icons.mjs: draws the installed app's icons (apps/web/public/icons/) from the favicon,
// so they can be drawn again when it changes: `node scripts/web-icons.mjs`, then commit the PNGs.
// Uses sharp (librsvg underneath), which the WhatsApp client installs; the build itself needs none
// of this, as the PNGs are committed.
import { readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import sharp from 'sharp';

const web = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../apps/web/public');
const favicon = readFileSync(path.join(web, 'favicon.svg'), 'utf8');
// The favicon's tile colour: a maskable icon is that colour to its edges.
const tile = /<rect[^>]*fill="(#[0-9a-f]{6})"/i.exec(favicon)?.[1] ?? '#0b7a75';

// "any" icons: the favicon as it is (a rounded tile), drawn at the size asked for.
const drawn = (size) =>
  sharp(Buffer.from(favicon), { density: (72 * size) / 64 })
    .resize(size, size)
    .png({ compressionLevel: 9, palette: true });

// A maskable icon is cut to the platform's shape (circle, squircle…), which may take anything outside
// the centred circle of 80% of the side: the favicon's speech bubble alone (14…50 of its 64 units,
// drawn at 90%: half the side, its corners inside that circle), on a square of the tile's colour.
const maskable = async (size) => {
  const bubble = favicon.replace(/<rect[^>]*\/>/, '');
  const inner = Math.round(size * 0.9);
  const mark = await sharp(Buffer.from(bubble), { density: (72 * inner) / 64 })
    .resize(inner, inner)
    .png()
    .toBuffer();
  return sharp({ create: { width: size, height: size, channels: 4, background: tile } })
    .composite([{ input: mark, gravity: 'centre' }])
    .png({ compressionLevel: 9, palette: true });
};

const icons = [
  ['icon-192.png', drawn(192)],
  ['icon-512.png', drawn(512)],
  ['maskable-512.png', await maskable(512)],
];
for (const [name, image] of icons) {
  const file = path.join(web, 'icons', name);
  writeFileSync(file, await image.toBuffer());
  console.log(`${path.relative(process.cwd(), file)}`);
}
