import { useQuery, useQueryClient } from '@tanstack/react-query';
import { tagsContract, type TagEvent, type TagOption } from '@atendi/shared';
import { setLiveData } from '../../lib/paged-cache';
import { call } from '../http-client';
import { useCompanyEvent } from '../socket';

// The short list of the company's tags (GET /tags/list: the chat's contact drawer, the ticket search
// filter): one cache key for the whole app, kept current by the company-{id}-tag events while a
// screen shows it.

const tagOptionKeys = { list: ['tags', 'list'] as const };

const fetchTagOptions = () => call(tagsContract.listTagOptions);

// The API's order: name, then id.
const byName = (a: TagOption, b: TagOption) => a.name.localeCompare(b.name) || a.id - b.id;

// SPEC §4: create and update insert or replace, delete removes.
const applyTagOptionEvent = (list: TagOption[] | undefined, event: TagEvent) => {
  if (!list) return list;
  if (event.action === 'delete') return list.filter((tag) => tag.id !== event.tagId);
  const others = list.filter((tag) => tag.id !== event.tag.id);
  return [...others, event.tag].sort(byName);
};

export const useTagOptions = () => {
  const queryClient = useQueryClient();
  useCompanyEvent<TagEvent>('tag', (event) => {
    if ((event?.action === 'delete' && event.tagId) || (event && 'tag' in event && event.tag))
      setLiveData<TagOption[]>(queryClient, tagOptionKeys.list, (list) =>
        applyTagOptionEvent(list, event),
      );
  });
  return useQuery({ queryKey: tagOptionKeys.list, queryFn: fetchTagOptions });
};
