import { useMutation, useQueryClient } from '@tanstack/react-query';
import { helpsContract } from '@atendi/shared';
import { call } from '../../../api/http-client';
import { helpVideosKey, type HelpVideo } from '../../../lib/help-videos';

export type Help = HelpVideo;
type HelpInput = Pick<Help, 'title' | 'video' | 'description'>;

const silent = { silent: true };

// Saves write the list the help centre also reads, so it shows the change without a reload.
export const useSaveHelp = () => {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ id, ...input }: HelpInput & { id?: number }) =>
      id
        ? call(helpsContract.updateHelp, { params: { id }, body: input })
        : call(helpsContract.createHelp, { body: input }),
    onSuccess: (help) =>
      queryClient.setQueryData<Help[]>(helpVideosKey, (helps = []) =>
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
    mutationFn: (id: number) => call(helpsContract.deleteHelp, { params: { id } }),
    onSuccess: (_data, id) =>
      queryClient.setQueryData<Help[]>(helpVideosKey, (helps = []) =>
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
