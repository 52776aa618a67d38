import { defineChecks } from '../../core/check.ts';
import { expectJson, expectSchema, expectStatus } from '../../core/expect.ts';

export const containerFilesChecks = defineChecks([
  {
    id: 'files.response.schema',
    title: 'A page of the container is a container file list of 2.2 made of container files of 2.1',
    operation: 'listContainerFiles',
    requirements: ['files.list.schema', 'files.file.schema', 'general.json-media-type'],
    async probe({ api, target }) {
      const res = await api.listContainerFiles(target.containerFiles.containerId);
      expectStatus(res, 200, 'files.list.schema');
      const body = expectJson(res);
      expectSchema(body, 'ContainerFileList', 'files.list.schema', res);
    },
  },
]);
