import { helpsContract, type HelpView } from '@atendi/shared';
import { useQuery } from '@tanstack/react-query';
import { call } from '../api/http-client';

export type HelpVideo = HelpView;

// The help centre and the settings helps tab read one cache entry, so an edit shows in both.
export const helpVideosKey = ['helps'] as const;

export const useHelpVideos = () =>
  useQuery({ queryKey: helpVideosKey, queryFn: () => call(helpsContract.listAllHelps) });

export const thumbnailUrl = (code: string) =>
  `https://img.youtube.com/vi/${encodeURIComponent(code)}/mqdefault.jpg`;

export const embedUrl = (code: string) =>
  `https://www.youtube.com/embed/${encodeURIComponent(code)}`;
