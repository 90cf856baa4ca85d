import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { api } from '../../../api/http-client';

export type Help = { id: number; title: string; video: string; description: string };
export type HelpInput = Omit<Help, 'id'>;

// The help centre page reads the same key, so an edit here shows there without a reload.
const helpsKey = ['helps'] as const;

export const useHelps = () =>
  useQuery({ queryKey: helpsKey, queryFn: () => api.get<Help[]>('/helps/list') });

const silent = { silent: true };

export const useSaveHelp = () => {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ id, ...input }: HelpInput & { id?: number }) =>
      id ? api.put<Help>(`/helps/${id}`, input) : api.post<Help>('/helps', input),
    onSuccess: (help) =>
      queryClient.setQueryData<Help[]>(helpsKey, (helps = []) =>
        helps.some((item) => item.id === help.id)
          ? helps.map((item) => (item.id === help.id ? help : item))
          : [...helps, help],
      ),
    meta: silent,
  });
};

export const useDeleteHelp = () => {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (id: number) => api.delete(`/helps/${id}`),
    onSuccess: (_data, id) =>
      queryClient.setQueryData<Help[]>(helpsKey, (helps = []) =>
        helps.filter((item) => item.id !== id),
      ),
    meta: silent,
  });
};

// Admins often paste the whole YouTube address; only the video code is stored.
export const videoCodeOf = (input: string) => {
  const text = input.trim();
  try {
    const url = new URL(text);
    if (url.hostname.endsWith('youtu.be')) return url.pathname.slice(1).split('/')[0] ?? '';
    if (url.hostname.includes('youtube')) {
      const fromQuery = url.searchParams.get('v');
      if (fromQuery) return fromQuery;
      const match = /\/(?:embed|shorts|live|v)\/([^/?#]+)/.exec(url.pathname);
      if (match) return match[1];
    }
  } catch {
    // Not an address: already a code.
  }
  return text;
};

export const thumbnailUrl = (code: string) =>
  `https://img.youtube.com/vi/${encodeURIComponent(code)}/mqdefault.jpg`;
