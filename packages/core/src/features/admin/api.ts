/**
 * The admin methods of `auth.api` (`FeatureDefinition.api`): each calls its declaration with its typed
 * input through the kernel's runner, so it is held to the same access check as the route. `AdminApi`
 * (`types.ts`) types them.
 *
 * @module features/admin/api
 */
import type { ApiRunner, OperationDeclaration } from "../../types/operation.js";
import type * as Declared from "./operations.js";
import type { AdminApi } from "./types.js";

/** The method `name` of `AdminApi`, made from the kernel's runner. */
type Maker<K extends keyof AdminApi> = (run: ApiRunner) => AdminApi[K];

/** The admin `auth.api` methods over their declarations (`operations.ts`). */
export function adminApi(ops: typeof Declared): { [K in keyof AdminApi]: Maker<K> } {
  /** The data of `operation` for `input`. */
  const data =
    <Body>(operation: OperationDeclaration<unknown, Body>) =>
    (run: ApiRunner) =>
    (request: Parameters<ApiRunner["data"]>[0], input?: object) =>
      run.data(request, operation, { ...input });
  /** Nothing, once `operation` is done. */
  const done =
    (operation: OperationDeclaration<unknown>) => (run: ApiRunner) => async (request: Parameters<ApiRunner["data"]>[0], input?: object) =>
      void (await run.call(request, operation, { ...input }));
  return {
    listUsers: data(ops.listUsers),
    getUser: data(ops.getUser),
    createUser: data(ops.createUser),
    updateUser: data(ops.updateUser),
    setUserPassword: done(ops.setUserPassword),
    banUser: data(ops.banUser),
    unbanUser: done(ops.unbanUser),
    deleteUser: done(ops.deleteUser),
    adminRevokeUserSessions: done(ops.adminRevokeUserSessions),
  };
}
