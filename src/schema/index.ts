// The whole GraphQL schema: importing each domain file registers its types and fields.
import { builder } from "./builder";
import { checkDeclaredScopes } from "./scopes";
import "./dateTime";
import "./network";
import "./vehicle";
import "./officers";
import "./dutytime";
import "./dutyHours";
import "./trends";
import "./statistics";
import "./records";
import "./apiKeys";
import "./events";
import "./webhooks";

export const schema = checkDeclaredScopes(builder.toSchema({ sortSchema: false }));
