import { defineChecks } from '../../core/check.ts';
import { expectJson, expectSchema, expectStatus } from '../../core/expect.ts';

export const modelEndpointsChecks = defineChecks([
  {
    id: 'models.response.schema',
    title: 'The endpoints of the target model come as { data: model } of 2.3 with endpoints of 2.4',
    operation: 'listModelEndpoints',
    requirements: ['models.response.data-wrapper', 'models.model.schema', 'models.endpoint.schema', 'general.json-media-type'],
    async probe({ api, target }) {
      const res = await api.listModelEndpoints(target.modelEndpoints.model);
      expectStatus(res, 200, 'models.response.data-wrapper');
      const body = expectJson(res);
      expectSchema(body, 'ModelEndpointsResponse', 'models.response.data-wrapper', res);
    },
  },
]);
