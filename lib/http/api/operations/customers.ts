import { z } from "zod";
import { listOf } from "@/lib/kernel/schemas/response-fields";
import { customerObject, deletedCustomerObject } from "@/lib/money-in/customers/customer-object";
import { createCustomerBody, listCustomersQuery, updateCustomerBody } from "@/lib/money-in/customers/schemas";
import { defineOperation } from "../operation";

const tag = "Customers";

export const CUSTOMERS = {
  list: defineOperation({
    operationId: "listCustomers",
    method: "get",
    path: "/v1/customers",
    tag,
    summary: "List customers",
    description: "Newest first; `reference` matches exactly, `email` without regard to case.",
    scope: "customers:read",
    query: listCustomersQuery,
    response: listOf(customerObject).meta({ id: "CustomerList" }),
  }),
  create: defineOperation({
    operationId: "createCustomer",
    method: "post",
    path: "/v1/customers",
    tag,
    summary: "Create a customer",
    scope: "customers:write",
    body: createCustomerBody,
    response: customerObject,
  }),
  retrieve: defineOperation({
    operationId: "retrieveCustomer",
    method: "get",
    path: "/v1/customers/{id}",
    tag,
    summary: "Retrieve a customer",
    scope: "customers:read",
    query: z.strictObject({}),
    response: customerObject,
    errors: ["not_found"],
  }),
  update: defineOperation({
    operationId: "updateCustomer",
    method: "post",
    path: "/v1/customers/{id}",
    tag,
    summary: "Update a customer",
    description: "Fields left out keep their value; `null` clears `name`, `email` or `reference`.",
    scope: "customers:write",
    body: updateCustomerBody,
    response: customerObject,
    errors: ["not_found"],
  }),
  delete: defineOperation({
    operationId: "deleteCustomer",
    method: "delete",
    path: "/v1/customers/{id}",
    tag,
    summary: "Delete a customer",
    scope: "customers:write",
    query: z.strictObject({}),
    response: deletedCustomerObject,
    errors: ["not_found"],
  }),
};
