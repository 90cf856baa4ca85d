import { useCallback, useEffect, useRef, useState } from 'react';
import { encodeMp3 } from './composer-mp3';

// SPEC §4 Audio recording: idle, recording, sending; SPEC §9: under 10000 bytes it is dropped.
const MIN_AUDIO_BYTES = 10_000;

export type RecorderState = 'idle' | 'recording' | 'sending';

export type RecorderFailure = 'denied' | 'unavailable' | 'tooShort' | 'failed';

type Options = {
  // Hands over the finished MP3; the recorder stays in 'sending' until the promise settles.
  onRecorded: (file: File) => Promise<unknown>;
  onFailure: (reason: RecorderFailure) => void;
};

const audioFileName = () => `audio-${Date.now()}.mp3`;

export const useAudioRecorder = ({ onRecorded, onFailure }: Options) => {
  const [state, setState] = useState<RecorderState>('idle');
  const [seconds, setSeconds] = useState(0);
  const recorderRef = useRef<MediaRecorder | null>(null);
  const streamRef = useRef<MediaStream | null>(null);
  const chunksRef = useRef<Blob[]>([]);
  // Set when the recording is to be kept; a cancelled one is thrown away on stop.
  const keepRef = useRef(false);
  const optionsRef = useRef({ onRecorded, onFailure });
  optionsRef.current = { onRecorded, onFailure };

  const releaseMicrophone = useCallback(() => {
    streamRef.current?.getTracks().forEach((track) => track.stop());
    streamRef.current = null;
  }, []);

  useEffect(() => {
    if (state !== 'recording') return;
    const startedAt = Date.now();
    setSeconds(0);
    const timer = window.setInterval(
      () => setSeconds(Math.floor((Date.now() - startedAt) / 1000)),
      250,
    );
    return () => window.clearInterval(timer);
  }, [state]);

  // Leaving the chat mid-recording lets go of the microphone.
  useEffect(
    () => () => {
      keepRef.current = false;
      if (recorderRef.current?.state === 'recording') recorderRef.current.stop();
      releaseMicrophone();
    },
    [releaseMicrophone],
  );

  const finish = async () => {
    const recorder = recorderRef.current;
    recorderRef.current = null;
    releaseMicrophone();
    if (!keepRef.current || !recorder) {
      setState('idle');
      return;
    }
    const recording = new Blob(chunksRef.current, { type: recorder.mimeType || 'audio/webm' });
    chunksRef.current = [];
    try {
      const mp3 = await encodeMp3(recording);
      if (mp3.size < MIN_AUDIO_BYTES) {
        optionsRef.current.onFailure('tooShort');
        return;
      }
      const file = new File([mp3], audioFileName(), { type: 'audio/mpeg' });
      // The send reports its own failure (toast with the error code).
      await optionsRef.current.onRecorded(file).catch(() => undefined);
    } catch {
      optionsRef.current.onFailure('failed');
    } finally {
      setState('idle');
    }
  };

  const start = async () => {
    if (state !== 'idle') return;
    if (!navigator.mediaDevices?.getUserMedia || typeof MediaRecorder === 'undefined') {
      optionsRef.current.onFailure('unavailable');
      return;
    }
    try {
      const stream = await navigator.mediaDevices.getUserMedia({ audio: true });
      streamRef.current = stream;
      const recorder = new MediaRecorder(stream);
      chunksRef.current = [];
      keepRef.current = false;
      recorder.ondataavailable = (event) => {
        if (event.data.size) chunksRef.current.push(event.data);
      };
      recorder.onstop = () => void finish();
      recorderRef.current = recorder;
      recorder.start();
      setState('recording');
    } catch (error) {
      releaseMicrophone();
      // SPEC §8: a refused microphone is reported and the recording stops.
      const name = (error as { name?: string } | null)?.name;
      optionsRef.current.onFailure(
        name === 'NotAllowedError' || name === 'SecurityError' ? 'denied' : 'failed',
      );
      setState('idle');
    }
  };

  const stop = (keep: boolean) => {
    const recorder = recorderRef.current;
    if (state !== 'recording' || !recorder) return;
    keepRef.current = keep;
    if (keep) setState('sending');
    if (recorder.state === 'inactive') void finish();
    else recorder.stop();
  };

  return {
    state,
    seconds,
    start,
    cancel: () => stop(false),
    send: () => stop(true),
  };
};

// The timer as m:ss.
export const formatDuration = (seconds: number) =>
  `${Math.floor(seconds / 60)}:${String(seconds % 60).padStart(2, '0')}`;
