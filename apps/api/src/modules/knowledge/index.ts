// What other modules may take of the knowledge base: its search (the agents' co-pilot drafts
// replies from it).
export { searchKnowledge } from './retrieval';
