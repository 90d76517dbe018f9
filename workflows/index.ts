// Every workflow type the worker runs. Workflow type names are wire contracts: never rename one.
export {};
