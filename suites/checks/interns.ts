import { defineChecks } from '../../core/check.ts';
import { expectJson, expectSchema, expectStatus } from '../../core/expect.ts';

export const internsChecks = defineChecks([
  {
    id: 'interns.response.schema',
    title: 'The interns of the key come as an intern list of 2.6 made of interns of 2.5',
    operation: 'listInterns',
    requirements: ['interns.list.schema', 'interns.intern.schema', 'general.json-media-type'],
    async probe({ api }) {
      const res = await api.listInterns();
      expectStatus(res, 200, 'interns.list.schema');
      const body = expectJson(res);
      expectSchema(body, 'InternList', 'interns.list.schema', res);
    },
  },
]);
