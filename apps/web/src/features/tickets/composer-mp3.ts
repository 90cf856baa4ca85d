import lamejsUrl from '@breezystack/lamejs?url';

// SPEC §9 Audio recording: MP3 at 128 kbit/s.
const MP3_KBPS = 128;
// lame takes PCM in blocks of this many samples per channel.
const BLOCK = 1152;

type AudioContextClass = typeof AudioContext;

const audioContextClass = (): AudioContextClass | undefined =>
  window.AudioContext ??
  (window as unknown as { webkitAudioContext?: AudioContextClass }).webkitAudioContext;

// A voice note needs one channel: the channels are averaged.
const monoOf = (audio: AudioBuffer) => {
  const mono = new Float32Array(audio.length);
  for (let channel = 0; channel < audio.numberOfChannels; channel += 1) {
    const data = audio.getChannelData(channel);
    for (let i = 0; i < mono.length; i += 1) mono[i] += data[i] / audio.numberOfChannels;
  }
  return mono;
};

const toInt16 = (samples: Float32Array) => {
  const pcm = new Int16Array(samples.length);
  for (let i = 0; i < samples.length; i += 1) {
    const sample = Math.max(-1, Math.min(1, samples[i]));
    pcm[i] = sample < 0 ? sample * 0x8000 : sample * 0x7fff;
  }
  return pcm;
};

// The encoder as its package built it, not bundled again: the build's tree-shaking takes every call
// of a `z` (or of a property of one) for a pure zod call (vite.config.ts, manualPureFunctions), and
// dropped lamejs's own `z.setModules(…)`, which left every MP3 unfinished ("Cannot read properties
// of undefined (reading 'flush_bitstream')"). The tests and the dev server import the package.
const loadLamejs = (): Promise<typeof import('@breezystack/lamejs')> =>
  import.meta.env.PROD ? import(/* @vite-ignore */ lamejsUrl) : import('@breezystack/lamejs');

// Decodes what the browser recorded (webm/ogg/mp4) and encodes it again as MP3. The encoder is
// loaded only when someone records, so it stays out of the main bundle.
export const encodeMp3 = async (recording: Blob): Promise<Blob> => {
  const Context = audioContextClass();
  if (!Context) throw new Error('This browser cannot decode audio');
  const [{ Mp3Encoder }, data] = await Promise.all([loadLamejs(), recording.arrayBuffer()]);
  const context = new Context();
  let audio: AudioBuffer;
  try {
    audio = await context.decodeAudioData(data);
  } finally {
    void context.close();
  }
  const pcm = toInt16(monoOf(audio));
  const encoder = new Mp3Encoder(1, audio.sampleRate, MP3_KBPS);
  const parts: Uint8Array[] = [];
  for (let start = 0; start < pcm.length; start += BLOCK) {
    const chunk = encoder.encodeBuffer(pcm.subarray(start, start + BLOCK));
    if (chunk.length) parts.push(chunk);
  }
  const tail = encoder.flush();
  if (tail.length) parts.push(tail);
  return new Blob(parts as BlobPart[], { type: 'audio/mpeg' });
};
