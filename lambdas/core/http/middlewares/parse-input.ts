import { parseRequest } from '../parse-request.ts';
import { pipelineState, required, type PipelineMiddleware } from './pipeline-state.ts';

/**
 * Params, query and body parsed with the endpoint's contract (../parse-request.ts: 400 with one line per problem,
 * 413, 415). Runs before authentication: the contract is public (openapi.json), so a 400 reveals nothing, and
 * malformed input gets the same clear answer from every caller.
 */
export const parseInput: PipelineMiddleware = {
  before: (request) => {
    const state = pipelineState(request);
    state.input = parseRequest(required(state, 'endpoint'), request.event);
  },
};
