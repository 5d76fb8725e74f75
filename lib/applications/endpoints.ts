import { getDb } from "@/db/client";
import { replaceFrontendHosts } from "../environments/frontend-hosts";
import { endpoint } from "../operation/endpoint";
import {
  addEnvironment,
  createApplication,
  deleteApplication,
  deleteEnvironment,
  listApplications,
  renameApplication,
  renameEnvironment,
} from "./applications";
import {
  addEnvironmentOperation,
  createApplicationOperation,
  deleteApplicationOperation,
  deleteEnvironmentOperation,
  listApplicationsOperation,
  renameApplicationOperation,
  renameEnvironmentOperation,
  replaceFrontendHostsOperation,
} from "./operations";

/** The dashboard-only applications operations with their implementations (no route file serves them). */
// list applications with their environments
export const listApplicationsEndpoint = endpoint(listApplicationsOperation, ({ query }) => listApplications(getDb(), query));

// create an application with its first environment
export const createApplicationEndpoint = endpoint(createApplicationOperation, ({ body, actor }) => createApplication(getDb(), body, actor));

// add an environment to an application
export const addEnvironmentEndpoint = endpoint(addEnvironmentOperation, ({ params, body, actor }) => addEnvironment(getDb(), params.applicationId, body, actor));

// rename an application
export const renameApplicationEndpoint = endpoint(renameApplicationOperation, ({ params, body, actor }) =>
  renameApplication(getDb(), params.applicationId, body.name, actor));

// rename an environment
export const renameEnvironmentEndpoint = endpoint(renameEnvironmentOperation, ({ params, body, actor }) =>
  renameEnvironment(getDb(), params.environmentId, body.name, actor));

// replace an environment's frontend hosts (an operator vouches for them: no ownership check exists)
export const replaceFrontendHostsEndpoint = endpoint(replaceFrontendHostsOperation, ({ params, body, actor }) =>
  replaceFrontendHosts(getDb(), params.environmentId, body.hosts, actor));

// delete an environment and everything in it
export const deleteEnvironmentEndpoint = endpoint(deleteEnvironmentOperation, ({ params, body, actor }) =>
  deleteEnvironment(getDb(), params.environmentId, body.confirmation, actor));

// delete an application and all its environments
export const deleteApplicationEndpoint = endpoint(deleteApplicationOperation, ({ params, body, actor }) =>
  deleteApplication(getDb(), params.applicationId, body.confirmation, actor));
