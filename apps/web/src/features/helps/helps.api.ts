import { useQuery } from '@tanstack/react-query';
import { api } from '../../api/http-client';

export type HelpVideo = { id: number; title: string; video: string; description: string };

// Same key as the settings helps tab, so a super user's edit shows here without a reload.
export const useHelpVideos = () =>
  useQuery({ queryKey: ['helps'], queryFn: () => api.get<HelpVideo[]>('/helps/list') });

export const thumbnailUrl = (code: string) =>
  `https://img.youtube.com/vi/${encodeURIComponent(code)}/mqdefault.jpg`;

export const embedUrl = (code: string) =>
  `https://www.youtube.com/embed/${encodeURIComponent(code)}`;
